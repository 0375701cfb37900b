// BuildError: what the generator throws for a definition it cannot compile, naming where it came from.

export class BuildError extends Error {
  override readonly name = 'BuildError';
  /** Printed by the CLI before the error's own line (tsc's errors for a failed type check). */
  readonly report: string | undefined;

  constructor(message: string, options: { cause?: unknown; report?: string } = {}) {
    super(message, { cause: options.cause });
    this.report = options.report;
  }
}
