// An entry that defines no service and exports nothing, for the CLI's "registered no service" error.
export {};
