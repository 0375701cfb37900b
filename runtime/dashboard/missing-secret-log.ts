// The dashboard's log of a secret it needs (a token, the session secret) that cannot be read at run time: one
// line when it goes missing and one when it is back, never one per request (each is answered 503 meanwhile).

/** Logs a missing secret once, when it goes missing, and once more when it is back. */
export function missingSecretLog(warn: (message: string) => void): { report(problem: string): void; recovered(): void } {
  let current: string | null = null;
  return {
    report(problem) {
      if (current === problem) return;
      current = problem;
      warn(`dashboard: ${problem}, so credentials cannot be checked: every request is answered 503 until it is set`);
    },
    recovered() {
      if (current === null) return;
      warn(`dashboard: ${current.replace(/^secret (\S+) .*$/, 'secret $1')} can be read again; requests are checked as before`);
      current = null;
    },
  };
}
