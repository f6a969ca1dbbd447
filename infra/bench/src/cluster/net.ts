/**
 * The drill's network: a bridge on this machine and one network namespace per host, each joined to
 * the bridge by a veth pair with an address of its own, so processes in different hosts reach each
 * other only over that link, which the drill can cut. Needs root and iproute2 (`ip netns`); nothing
 * of the machine's own network changes but the bridge and the pairs, which teardown removes.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The drill's subnet; the bridge is .1 and the machine reaches every host through it. */
export const SUBNET = '10.77.0';
export const BRIDGE_IP = `${SUBNET}.1`;
const BRIDGE = 'stc-br0';
/** Namespaces and interfaces carry this prefix, so a run left behind is found and removed. */
const PREFIX = 'stc-';

export interface Host {
  /** Short name: `api1`, `data`, … */
  name: string;
  namespace: string;
  ip: string;
  /** The pair's end on the bridge: down cuts the host off. */
  link: string;
}

export async function ip(...args: string[]): Promise<string> {
  return (await run('ip', args)).stdout;
}

/** Why namespaces cannot be made here, or undefined when they can. */
export async function namespacesUnavailable(): Promise<string | undefined> {
  if (process.getuid?.() !== 0) return 'the drill makes network namespaces, which needs root';
  try {
    await ip('netns', 'list');
    await ip('link', 'add', `${PREFIX}probe`, 'type', 'bridge');
    await ip('link', 'del', `${PREFIX}probe`);
  } catch (error) {
    return `ip netns / ip link cannot be used here: ${(error as Error).message.split('\n')[0]}`;
  }
  return undefined;
}

/** Removes what an earlier run may have left: its namespaces and its bridge. */
export async function removeLeftovers(): Promise<void> {
  for (const line of (await ip('netns', 'list')).split('\n')) {
    const name = line.split(' ')[0];
    if (name?.startsWith(PREFIX)) await ip('netns', 'del', name).catch(() => undefined);
  }
  await ip('link', 'del', BRIDGE).catch(() => undefined);
}

export class Network {
  readonly hosts = new Map<string, Host>();

  async start(): Promise<void> {
    await removeLeftovers();
    await ip('link', 'add', BRIDGE, 'type', 'bridge');
    await ip('addr', 'add', `${BRIDGE_IP}/24`, 'dev', BRIDGE);
    await ip('link', 'set', BRIDGE, 'up');
  }

  /** A host with the address `<SUBNET>.<octet>`. */
  async add(name: string, octet: number): Promise<Host> {
    const namespace = `${PREFIX}${name}`;
    const link = `${PREFIX}${name}-h`;
    const inside = `${PREFIX}${name}-n`;
    const host = { name, namespace, ip: `${SUBNET}.${octet}`, link };
    await ip('netns', 'add', namespace);
    await ip('link', 'add', link, 'type', 'veth', 'peer', 'name', inside);
    await ip('link', 'set', link, 'master', BRIDGE);
    await ip('link', 'set', link, 'up');
    await ip('link', 'set', inside, 'netns', namespace);
    await ip('netns', 'exec', namespace, 'ip', 'addr', 'add', `${host.ip}/24`, 'dev', inside);
    await ip('netns', 'exec', namespace, 'ip', 'link', 'set', inside, 'up');
    await ip('netns', 'exec', namespace, 'ip', 'link', 'set', 'lo', 'up');
    // Everything outside the subnet (nothing the drill needs) goes through the bridge.
    await ip('netns', 'exec', namespace, 'ip', 'route', 'add', 'default', 'via', BRIDGE_IP);
    this.hosts.set(name, host);
    return host;
  }

  host(name: string): Host {
    const host = this.hosts.get(name);
    if (!host) throw new Error(`no host ${name}`);
    return host;
  }

  /** Cuts the host's link (its processes run on, reaching nothing and reached by nothing). */
  async cut(host: Host): Promise<void> {
    await ip('link', 'set', host.link, 'down');
  }

  async restore(host: Host): Promise<void> {
    await ip('link', 'set', host.link, 'up');
  }

  async stop(): Promise<void> {
    for (const host of this.hosts.values()) await ip('netns', 'del', host.namespace).catch(() => undefined);
    this.hosts.clear();
    await ip('link', 'del', BRIDGE).catch(() => undefined);
  }
}
