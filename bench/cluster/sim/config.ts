// The simulator's config (protocol.ts SimConfig), checked as it is read: a bad file stops
// the start with a message naming the field.
import { UUID_PATTERN } from '../../../proto/identity.js';
import { PLANTS } from '../protocol.js';
import type { ChurnConfig, Mode, PeriodDuty, Plant, SimConfig } from '../protocol.js';

const MODES: readonly Mode[] = ['naive', 'anchor', 'feed'];
const PERIOD_DUTIES: readonly PeriodDuty[] = ['node-heartbeat', 'resources-node', 'resources-instance', 'cleaner', 'maintenance'];

function object(field: string, v: unknown): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`${field}: an object is needed`);
  return v as Record<string, unknown>;
}

function array(field: string, v: unknown): unknown[] {
  if (!Array.isArray(v)) throw new Error(`${field}: an array is needed`);
  return v;
}

function uuid(field: string, v: unknown): string {
  if (typeof v !== 'string' || !UUID_PATTERN.test(v)) throw new Error(`${field}: a lower-case uuid is needed`);
  return v;
}

function string(field: string, v: unknown): string {
  if (typeof v !== 'string' || v === '') throw new Error(`${field}: a non-empty string is needed`);
  return v;
}

export function parseSimConfig(raw: unknown): SimConfig {
  const c = object('config', raw);
  if (!MODES.includes(c['mode'] as Mode)) throw new Error(`mode: one of ${MODES.join(', ')}`);
  const targets = array('targets', c['targets']).map((t, i) => string(`targets[${i}]`, t));
  if (targets.length === 0) throw new Error('targets: at least one');
  const nodes = array('nodes', c['nodes']).map((n, i) => {
    const o = object(`nodes[${i}]`, n);
    return { uuid: uuid(`nodes[${i}].uuid`, o['uuid']), fqdn: string(`nodes[${i}].fqdn`, o['fqdn']) };
  });
  if (nodes.length === 0) throw new Error('nodes: at least one');
  const nodeSet = new Set(nodes.map((n) => n.uuid));
  const networks = array('networks', c['networks']).map((n, i) => {
    const o = object(`networks[${i}]`, n);
    return { uuid: uuid(`networks[${i}].uuid`, o['uuid']), ipamUuid: uuid(`networks[${i}].ipamUuid`, o['ipamUuid']) };
  });
  const instances = array('instances', c['instances']).map((n, i) => {
    const o = object(`instances[${i}]`, n);
    const instance = {
      uuid: uuid(`instances[${i}].uuid`, o['uuid']),
      nodeUuid: uuid(`instances[${i}].nodeUuid`, o['nodeUuid']),
      networkUuid: uuid(`instances[${i}].networkUuid`, o['networkUuid']),
      interfaceUuid: uuid(`instances[${i}].interfaceUuid`, o['interfaceUuid']),
    };
    if (!nodeSet.has(instance.nodeUuid)) throw new Error(`instances[${i}].nodeUuid: not one of the nodes`);
    return instance;
  });
  const periods: Partial<Record<PeriodDuty, number>> = {};
  if (c['periods'] !== undefined) {
    for (const [key, value] of Object.entries(object('periods', c['periods']))) {
      if (!PERIOD_DUTIES.includes(key as PeriodDuty)) throw new Error(`periods.${key}: not a period duty (${PERIOD_DUTIES.join(', ')})`);
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 100) throw new Error(`periods.${key}: an integer ≥ 100 (ms) is needed`);
      periods[key as PeriodDuty] = value;
    }
  }
  if (c['pinned'] !== undefined && typeof c['pinned'] !== 'boolean') throw new Error('pinned: true or false');
  const churn = c['churn'] === undefined ? undefined : parseChurn(object('churn', c['churn']));
  if (churn && churn.instancesPerS > 0 && networks.length === 0) throw new Error('churn.instancesPerS: churned instances need a network');
  if (c['plant'] !== undefined && !PLANTS.includes(c['plant'] as Plant)) throw new Error(`plant: one of ${PLANTS.join(', ')}`);
  const plant = c['plant'] as Plant | undefined;
  let pinnedTargets: string[] | undefined;
  if (c['pinnedTargets'] !== undefined) {
    pinnedTargets = array('pinnedTargets', c['pinnedTargets']).map((t, i) => {
      if (typeof t !== 'string' || !targets.includes(t)) throw new Error(`pinnedTargets[${i}]: one of the targets`);
      return t;
    });
    if (pinnedTargets.length !== nodes.length) throw new Error('pinnedTargets: one per node');
  }
  return {
    mode: c['mode'] as Mode,
    targets,
    nodes,
    instances,
    networks,
    periods,
    pinned: c['pinned'] === true,
    ...(c['wakeAll'] === true ? { wakeAll: true } : {}),
    ...(pinnedTargets ? { pinnedTargets } : {}),
    ...(churn ? { churn } : {}),
    ...(plant ? { plant } : {}),
  };
}

function parseChurn(o: Record<string, unknown>): ChurnConfig {
  const rate = (field: string, min: number, max: number): number => {
    const v = o[field];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) throw new Error(`churn.${field}: a number in ${min}..${max} is needed`);
    return v;
  };
  return { instancesPerS: rate('instancesPerS', 0, 50), staticPerS: rate('staticPerS', 0, 50), lifetimeMs: rate('lifetimeMs', 3000, 3_600_000) };
}
