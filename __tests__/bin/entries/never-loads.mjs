// An entry whose top-level await never settles: Node would end the process with code 0 and not a word.
await new Promise(() => undefined);
export {};
