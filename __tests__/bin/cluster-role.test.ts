// A process serving alone never loads node:cluster (with child_process and its IPC, about 8 ms of a bundle's
// start): the bundle's and the CLI's serving path, the runtime and the shutdown handler decide their part in
// `--workers` without it (bin/cluster/role.ts). The worker path is what the --workers tests of cli.test.ts run.
import { runNode } from '../helpers/spawn-cli';

const SERVING_MODULES = ['./lib/runtime', './lib/bin/start-bundle', './lib/bin/serve', './lib/bin/shutdown', './lib/bin/commands/start'];

it('loads the serving path without node:cluster, and finds this process is no worker', async () => {
  const script = [
    `for (const module of ${JSON.stringify(SERVING_MODULES)}) require(module);`,
    "const { isClusterWorker } = require('./lib/bin/cluster/role');",
    "console.log(JSON.stringify({ worker: isClusterWorker(), loaded: process.moduleLoadList.filter((name) => /cluster|child_process/.test(name)) }));",
  ].join('\n');
  const result = await runNode(['-e', script], { NODE_UNIQUE_ID: undefined });
  expect(result.stderr).toBe('');
  expect(JSON.parse(result.stdout)).toEqual({ worker: false, loaded: [] });
});
