// Module hooks (module.register) for the `tessera dev` child: tells the main thread the URL of every module Node
// loads through its ES module loader, which require.cache never lists, so that dev watches ES module files too.
// Registered after tsx's hooks, so it runs first and sees TypeScript files before tsx compiles them.
let port = null;

export function initialize(data) {
  port = data.port;
}

export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  // Posted before Node gets the module, so the main thread has it by the time the entry's import settles.
  if (port !== null && url.startsWith('file:')) port.postMessage(url);
  return loaded;
}
