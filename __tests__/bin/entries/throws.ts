// An entry that throws at top level, for the CLI's "failed to load" error.
throw new Error('database settings are missing');
