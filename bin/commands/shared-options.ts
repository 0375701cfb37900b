// The arguments start, dev and build share: the entry and a port validated by spec §8.1's rules in bin/port.ts
// (taken as a string, so our validator, not commander, judges it), and the serve options of start and dev.
import { Option, type Command } from 'commander';

/** A command with its usage written as it is typed: `tessera build <entry> [options]`. */
export function commandWithEntry(program: Command, name: string, description: string): Command {
  return program
    .command(name)
    .description(description)
    .argument('<entry>', 'Module that defines the services and may default-export the server options')
    .usage('<entry> [options]')
    .allowExcessArguments(false);
}

/** `--port [port]`: an optional value, so a bare `--port` reaches resolvePort, which names the rule it breaks. */
export function withPort(command: Command, portDescription: string): Command {
  return command.option('--port [port]', portDescription);
}

/** The options of the commands that serve (start, dev). */
export interface ServeArgs {
  port?: string | boolean;
  host?: string;
  /** `--no-compiler` serves every route with the generic handler. */
  compiler?: boolean;
}

/** `--port`, `--host` and `--compiler` / `--no-compiler`, beside the entry. */
export function withServeOptions(command: Command): Command {
  return withPort(command, 'Port to listen on, 1 to 65535 (default: PORT, then 4000)')
    .option('--host <host>', 'Interface to listen on, such as 127.0.0.1 (default: all interfaces)')
    .option('--compiler', 'Generate a specialized handler per route at start; --no-compiler uses the generic handler (default: true)')
    .addOption(new Option('--no-compiler').hideHelp());
}

/** What the serve options change in the entry's server options: `--no-compiler` wins over the entry's `compiler`. */
export function withServeOverrides(options: Record<string, unknown>, args: ServeArgs): Record<string, unknown> {
  return args.compiler === false ? { ...options, compiler: false } : options;
}

/** An option given without its value (`--port`, `--out`) reads as the empty string, which the commands refuse by name. */
export function flagValue(value: string | boolean | undefined): string | undefined {
  return value === true ? '' : value === false ? undefined : value;
}
