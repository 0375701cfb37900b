// BuildError: what the generator throws for a definition it cannot compile, naming where it came from.

export class BuildError extends Error {
  override readonly name = 'BuildError';
}
