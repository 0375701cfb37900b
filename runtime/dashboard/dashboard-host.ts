// Which `Host` headers the dashboard answers. A loopback dashboard without auth trusts whoever reaches it, and
// a web page can reach it through DNS rebinding (a name of the attacker's that resolves to 127.0.0.1): the
// browser then sends the attacker's name as Host. So an open dashboard answers loopback names only, plus
// `allowedHosts`; with auth, any name unless `allowedHosts` is given.
import { isLoopbackHost, type ResolvedDashboardOptions } from './dashboard-options';

/** `example.com:4001` → `example.com`, `[::1]:4001` → `[::1]`; null for what is not a host (and port). */
function hostName(header: string): string | null {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::[0-9]{1,5})?$/.exec(header.trim());
  return match === null ? null : match[1].toLowerCase();
}

/** Whether a request with this Host header may be answered; null when any host may (auth set, no `allowedHosts`). */
export function hostCheck(options: Pick<ResolvedDashboardOptions, 'allowedHosts'>, isOpen: boolean): ((header: string | undefined) => boolean) | null {
  const allowed = options.allowedHosts;
  if (allowed === null && !isOpen) return null;
  return (header) => {
    const name = header === undefined ? null : hostName(header);
    if (name === null) return false;
    // RFC 6761: browsers resolve `localhost` and its subdomains to loopback themselves, never through DNS.
    return isLoopbackHost(name) || name.endsWith('.localhost') || (allowed !== null && allowed.includes(name));
  };
}
