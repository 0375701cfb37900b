// Waiting on a running `tessera dev` as a user watches it: for a line it prints, or for the title it serves.
import { request } from './request';
import type { RunningCli } from './spawn-cli';

/** Polls what the process printed until `pattern` appears (failing after 30 s). */
export async function waitForOutput(dev: RunningCli, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!pattern.test(dev.stdout())) {
    if (Date.now() > deadline) throw new Error(`no ${pattern} in:\n${dev.stdout()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The served title, polled until it is `expected` or `boundMs` have passed; answers the last one seen. */
export async function waitForTitle(url: string, expected: string, boundMs: number): Promise<string | undefined> {
  const deadline = Date.now() + boundMs;
  let title: string | undefined;
  for (;;) {
    title = await request(`${url}/openapi.json`).then((answer) => answer.body?.info?.title as string | undefined, () => undefined);
    if (title === expected || Date.now() > deadline) return title;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
