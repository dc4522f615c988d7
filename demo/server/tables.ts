// meta.k8s.io/v1 Tables: what the real apiserver answers when a client (kubectl
// get) asks for `as=Table`. The columns and cell wording follow kubectl's
// server-side printers (pkg/printers/internalversion) for built-in kinds and
// each CRD's additionalPrinterColumns for custom ones; the server always sends
// the wide (priority 1) columns and kubectl hides them unless `-o wide`.
import type { StoredObject } from '../object-store.js';
import { present } from '../kinds.js';
import type { ServedKind } from '../kind-types.js';
import { evalJsonPath, printerColumnsOf } from './crds.js';

export interface ColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface TableRow {
  cells: unknown[];
  object: unknown;
  conditions?: Array<{ type: string; status: string }>;
}

/** The meta.k8s.io version a client asked its Table or PartialObjectMetadata in. */
export type MetaVersion = 'v1' | 'v1beta1';

export interface Table {
  kind: 'Table';
  apiVersion: `meta.k8s.io/${MetaVersion}`;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  columnDefinitions?: ColumnDefinition[];
  rows: TableRow[];
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';

type Obj = Record<string, unknown>;
type Printer = { columns: ColumnDefinition[]; cells: (o: StoredObject, now: number) => unknown[] };

function col(name: string, type = 'string', priority = 0, format = '', description = ''): ColumnDefinition {
  return { name, type, format, description: description || `${name} column`, priority };
}
const NAME = col('Name', 'string', 0, 'name', 'Name must be unique within a namespace.');
const AGE = col(
  'Age',
  'string',
  0,
  '',
  'CreationTimestamp is a timestamp representing the server time when this object was created.',
);

function get(o: unknown, ...path: string[]): unknown {
  let cur = o;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Obj)[p];
  }
  return cur;
}
function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}
function num(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}
function arr(v: unknown): Obj[] {
  return Array.isArray(v) ? (v as Obj[]) : [];
}

/** apimachinery's duration.HumanDuration (src/text/duration.ts is wlx's own: test/text/duration.test.ts holds both to one table). */
export function humanDuration(ms: number): string {
  // Go's int(d.Seconds()) truncates toward zero.
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.floor(hours / 24) % 365;
    const y = Math.floor(hours / 24 / 365);
    return dy === 0 ? `${y}y` : `${y}y${dy}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

/** translateTimestampSince: `<unknown>` for a missing time. */
export function since(timestamp: unknown, now: number): string {
  if (typeof timestamp !== 'string' || !timestamp) return '<unknown>';
  const t = Date.parse(timestamp);
  if (Number.isNaN(t)) return '<unknown>';
  return humanDuration(now - t);
}

/** A ResourceClaim's STATE as kube-apiserver words it: `deleted`, then `allocated[,reserved]` or `pending`. */
function claimState(o: StoredObject): string {
  const states = o.metadata.deletionTimestamp ? ['deleted'] : [];
  const reserved = get(o, 'status', 'reservedFor');
  if (get(o, 'status', 'allocation')) {
    states.push('allocated');
    if (Array.isArray(reserved) && reserved.length > 0) states.push('reserved');
  } else if (states.length === 0) states.push('pending');
  return states.join(',');
}

function age(o: StoredObject, now: number): string {
  return since(o.metadata.creationTimestamp, now);
}

/** kubectl's STATUS word and READY/RESTARTS cells for a pod (printPod). */
export function podPrintFacts(
  pod: Obj,
  now: number,
): { ready: string; status: string; restarts: string; restartCount: number } {
  const spec = (pod.spec ?? {}) as Obj;
  const status = (pod.status ?? {}) as Obj;
  const containers = arr(spec.containers);
  const initSpecs = arr(spec.initContainers);
  let total = containers.length;
  let readyCount = 0;
  let restarts = 0;
  let restartableInitRestarts = 0;
  let lastRestart = 0;
  let lastRestartableInitRestart = 0;
  const phase = str(status.phase);
  let reason = str(status.reason) || phase;
  for (const c of arr(status.conditions)) {
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }
  const isRestartable = (name: unknown) => initSpecs.some((c) => c.name === name && c.restartPolicy === 'Always');
  for (const c of initSpecs) if (c.restartPolicy === 'Always') total++;
  const finishedAt = (cs: Obj) => {
    const t = get(cs, 'lastState', 'terminated', 'finishedAt');
    return typeof t === 'string' ? Date.parse(t) || 0 : 0;
  };

  let initializing = false;
  const initStatuses = arr(status.initContainerStatuses);
  for (let i = 0; i < initStatuses.length; i++) {
    const cs = initStatuses[i];
    restarts += num(cs.restartCount);
    lastRestart = Math.max(lastRestart, finishedAt(cs));
    if (isRestartable(cs.name)) {
      restartableInitRestarts += num(cs.restartCount);
      lastRestartableInitRestart = Math.max(lastRestartableInitRestart, finishedAt(cs));
    }
    const terminated = get(cs, 'state', 'terminated') as Obj | undefined;
    const waiting = get(cs, 'state', 'waiting') as Obj | undefined;
    if (terminated && num(terminated.exitCode) === 0) continue;
    if (isRestartable(cs.name) && cs.started === true) {
      if (cs.ready === true) readyCount++;
      continue;
    }
    if (terminated) {
      if (!str(terminated.reason)) {
        reason =
          num(terminated.signal) !== 0
            ? `Init:Signal:${num(terminated.signal)}`
            : `Init:ExitCode:${num(terminated.exitCode)}`;
      } else reason = `Init:${str(terminated.reason)}`;
    } else if (waiting && str(waiting.reason) && waiting.reason !== 'PodInitializing') {
      reason = `Init:${str(waiting.reason)}`;
    } else {
      reason = `Init:${i}/${initSpecs.length}`;
    }
    initializing = true;
    break;
  }

  const initializedTrue = arr(status.conditions).some((c) => c.type === 'Initialized' && c.status === 'True');
  if (!initializing || initializedTrue) {
    restarts = restartableInitRestarts;
    lastRestart = lastRestartableInitRestart;
    let hasRunning = false;
    const statuses = arr(status.containerStatuses);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const cs = statuses[i];
      restarts += num(cs.restartCount);
      lastRestart = Math.max(lastRestart, finishedAt(cs));
      const waiting = get(cs, 'state', 'waiting') as Obj | undefined;
      const terminated = get(cs, 'state', 'terminated') as Obj | undefined;
      const running = get(cs, 'state', 'running');
      if (waiting && str(waiting.reason)) reason = str(waiting.reason);
      else if (terminated && str(terminated.reason)) reason = str(terminated.reason);
      else if (terminated) {
        reason =
          num(terminated.signal) !== 0 ? `Signal:${num(terminated.signal)}` : `ExitCode:${num(terminated.exitCode)}`;
      } else if (cs.ready === true && running) {
        hasRunning = true;
        readyCount++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      const podReady = arr(status.conditions).some((c) => c.type === 'Ready' && c.status === 'True');
      reason = podReady ? 'Running' : 'NotReady';
    }
  }
  const deletion = get(pod, 'metadata', 'deletionTimestamp');
  if (deletion && status.reason === 'NodeLost') reason = 'Unknown';
  else if (deletion && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';

  let restartsText = String(restarts);
  if (restarts !== 0 && lastRestart > 0) restartsText = `${restarts} (${humanDuration(now - lastRestart)} ago)`;
  return { ready: `${readyCount}/${total}`, status: reason, restarts: restartsText, restartCount: restarts };
}

function none(s: string): string {
  return s || '<none>';
}

function containerCells(template: unknown): [string, string] {
  const cs = arr(get(template, 'spec', 'containers'));
  return [cs.map((c) => str(c.name)).join(','), cs.map((c) => str(c.image)).join(',')];
}

function formatLabelSelector(sel: unknown): string {
  if (!sel || typeof sel !== 'object') return '<none>';
  const parts: string[] = [];
  const ml = (sel as Obj).matchLabels as Record<string, string> | undefined;
  for (const [k, v] of Object.entries(ml ?? {}).sort()) parts.push(`${k}=${v}`);
  for (const e of arr((sel as Obj).matchExpressions)) {
    const vals = (e.values as string[] | undefined) ?? [];
    const op = str(e.operator);
    if (op === 'In') parts.push(`${str(e.key)} in (${vals.join(',')})`);
    else if (op === 'NotIn') parts.push(`${str(e.key)} notin (${vals.join(',')})`);
    else if (op === 'Exists') parts.push(str(e.key));
    else if (op === 'DoesNotExist') parts.push(`!${str(e.key)}`);
  }
  return parts.length ? parts.join(',') : '<none>';
}

function hasCondition(o: Obj, type: string): boolean {
  return arr(get(o, 'status', 'conditions')).some((c) => c.type === type && c.status === 'True');
}

/** A CRD printer column: a simple JSONPath result, rendered like apiextensions' table convertor. */
function crdCell(value: unknown, type: string, now: number): unknown {
  if (value === undefined || value === null) return null;
  if (type === 'date') return since(value, now);
  if (type === 'integer' || type === 'number') return typeof value === 'number' ? value : null;
  if (type === 'boolean') return typeof value === 'boolean' ? value : null;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A custom kind's columns: Name, then its CRD's additionalPrinterColumns. */
function crdPrinter(kind: ServedKind): Printer {
  const columns = printerColumnsOf(kind);
  return {
    columns: [
      { ...NAME, description: 'Name must be unique within a namespace.' },
      ...columns.map((c) => col(c.name, c.type, c.priority ?? 0, '', c.description ?? '')),
    ],
    cells: (o, now) => [o.metadata.name, ...columns.map((c) => crdCell(evalJsonPath(o, c.jsonPath), c.type, now))],
  };
}

/** apiserver's default table convertor (kinds without a printer of their own, e.g. CustomResourceDefinition). */
const DEFAULT_PRINTER: Printer = {
  columns: [
    NAME,
    col(
      'Created At',
      'date',
      0,
      '',
      'CreationTimestamp is a timestamp representing the server time when this object was created.',
    ),
  ],
  cells: (o) => [o.metadata.name, o.metadata.creationTimestamp],
};

const PRINTERS: Record<string, Printer> = {
  Pod: {
    columns: [
      NAME,
      col('Ready', 'string', 0, '', 'The aggregate readiness state of this pod for accepting traffic.'),
      col('Status', 'string', 0, '', 'The aggregate status of the containers in this pod.'),
      col(
        'Restarts',
        'string',
        0,
        '',
        'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
      ),
      AGE,
      col(
        'IP',
        'string',
        1,
        '',
        'IP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.',
      ),
      col('Node', 'string', 1, '', 'Name of the Node this pod is scheduled to.'),
      col('Nominated Node', 'string', 1, '', 'Name of the node where the pod is nominated to run.'),
      col('Readiness Gates', 'string', 1, '', 'The readiness gates of this pod.'),
    ],
    cells: (o, now) => {
      const f = podPrintFacts(o, now);
      const spec = (o.spec ?? {}) as Obj;
      const status = (o.status ?? {}) as Obj;
      const podIPs = arr(status.podIPs);
      const ip = str(podIPs[0]?.ip) || str(status.podIP);
      const gates = arr(spec.readinessGates);
      let gatesText = '<none>';
      if (gates.length) {
        const trues = gates.filter((g) =>
          arr(status.conditions).some((c) => c.type === g.conditionType && c.status === 'True'),
        ).length;
        gatesText = `${trues}/${gates.length}`;
      }
      return [
        o.metadata.name,
        f.ready,
        f.status,
        f.restarts,
        age(o, now),
        none(ip),
        none(str(spec.nodeName)),
        none(str(status.nominatedNodeName)),
        gatesText,
      ];
    },
  },
  Node: {
    columns: [
      NAME,
      col('Status', 'string', 0, '', 'The status of the node'),
      col('Roles', 'string', 0, '', 'The roles of the node'),
      AGE,
      col('Version', 'string', 0, '', 'Kubelet Version reported by the node.'),
      col('Internal-IP', 'string', 1, '', 'List of internal IPs for the node.'),
      col('External-IP', 'string', 1, '', 'List of external IPs for the node.'),
      col(
        'OS-Image',
        'string',
        1,
        '',
        'OS image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).',
      ),
      col(
        'Kernel-Version',
        'string',
        1,
        '',
        "Kernel version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
      ),
      col(
        'Container-Runtime',
        'string',
        1,
        '',
        'Container runtime version reported by the node through runtime remote API (e.g. containerd://1.4.2).',
      ),
    ],
    cells: (o, now) => {
      const statusWords: string[] = [];
      const ready = arr(get(o, 'status', 'conditions')).find((c) => c.type === 'Ready');
      if (ready) statusWords.push(ready.status === 'True' ? 'Ready' : 'NotReady');
      if (!statusWords.length) statusWords.push('Unknown');
      if (get(o, 'spec', 'unschedulable') === true) statusWords.push('SchedulingDisabled');
      const roles: string[] = [];
      for (const [k, v] of Object.entries(o.metadata.labels ?? {})) {
        if (k.startsWith('node-role.kubernetes.io/')) roles.push(k.slice('node-role.kubernetes.io/'.length));
        else if (k === 'kubernetes.io/role' && v) roles.push(v);
      }
      const addrs = arr(get(o, 'status', 'addresses'));
      const addr = (t: string) => str(addrs.find((a) => a.type === t)?.address) || '<none>';
      const info = (get(o, 'status', 'nodeInfo') ?? {}) as Obj;
      return [
        o.metadata.name,
        statusWords.join(','),
        roles.sort().join(',') || '<none>',
        age(o, now),
        str(info.kubeletVersion),
        addr('InternalIP'),
        addr('ExternalIP'),
        str(info.osImage) || '<unknown>',
        str(info.kernelVersion) || '<unknown>',
        str(info.containerRuntimeVersion) || '<unknown>',
      ];
    },
  },
  Job: {
    columns: [
      NAME,
      col('Status', 'string', 0, '', 'Status of the job.'),
      col(
        'Completions',
        'string',
        0,
        '',
        'The desired number of successfully finished pods the job should be run with.',
      ),
      col('Duration', 'string', 0, '', 'Time required to complete the job.'),
      AGE,
      col('Containers', 'string', 1, '', 'Names of each container in the template.'),
      col('Images', 'string', 1, '', 'Images referenced by each container in the template.'),
      col('Selector', 'string', 1, '', 'A label query over pods that should match the pod count.'),
    ],
    cells: (o, now) => {
      const spec = (o.spec ?? {}) as Obj;
      const status = (o.status ?? {}) as Obj;
      const succeeded = num(status.succeeded);
      let completions: string;
      if (typeof spec.completions === 'number') completions = `${succeeded}/${spec.completions}`;
      else {
        const parallelism = num(spec.parallelism);
        completions = parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
      }
      let duration = '';
      const start = typeof status.startTime === 'string' ? Date.parse(status.startTime) : NaN;
      const end = typeof status.completionTime === 'string' ? Date.parse(status.completionTime) : NaN;
      if (!Number.isNaN(start)) duration = humanDuration((Number.isNaN(end) ? now : end) - start);
      let word = 'Running';
      if (hasCondition(o, 'Complete')) word = 'Complete';
      else if (hasCondition(o, 'Failed')) word = 'Failed';
      else if (o.metadata.deletionTimestamp) word = 'Terminating';
      else if (hasCondition(o, 'Suspended')) word = 'Suspended';
      else if (hasCondition(o, 'FailureTarget')) word = 'FailureTarget';
      else if (hasCondition(o, 'SuccessCriteriaMet')) word = 'SuccessCriteriaMet';
      const [names, images] = containerCells(spec.template);
      return [
        o.metadata.name,
        word,
        completions,
        duration,
        age(o, now),
        names,
        images,
        formatLabelSelector(spec.selector),
      ];
    },
  },
  StatefulSet: {
    columns: [
      NAME,
      col('Ready', 'string', 0, '', 'Number of the pod with ready state'),
      AGE,
      col('Containers', 'string', 1, '', 'Names of each container in the template.'),
      col('Images', 'string', 1, '', 'Images referenced by each container in the template.'),
    ],
    cells: (o, now) => {
      const spec = (o.spec ?? {}) as Obj;
      const replicas = typeof spec.replicas === 'number' ? spec.replicas : 1;
      const [names, images] = containerCells(spec.template);
      return [o.metadata.name, `${num(get(o, 'status', 'readyReplicas'))}/${replicas}`, age(o, now), names, images];
    },
  },
  // resource.k8s.io, as kube-apiserver 1.32 prints them (pkg/printers: claim state, slice node/driver/pool).
  DeviceClass: { columns: [NAME, AGE], cells: (o, now) => [o.metadata.name, age(o, now)] },
  ResourceClaimTemplate: { columns: [NAME, AGE], cells: (o, now) => [o.metadata.name, age(o, now)] },
  ResourceClaim: {
    columns: [
      NAME,
      col('State', 'string', 0, '', 'A summary of the current state (allocated, pending, reserved, etc.).'),
      AGE,
    ],
    cells: (o, now) => [o.metadata.name, claimState(o), age(o, now)],
  },
  ResourceSlice: {
    columns: [
      NAME,
      col('Node', 'string', 0, '', 'The node providing the resources, if local.'),
      col('Driver', 'string', 0, '', 'The driver providing the resources.'),
      col('Pool', 'string', 0, '', 'The pool containing the resources.'),
      AGE,
    ],
    cells: (o, now) => [
      o.metadata.name,
      str(get(o, 'spec', 'nodeName')),
      str(get(o, 'spec', 'driver')),
      str(get(o, 'spec', 'pool', 'name')),
      age(o, now),
    ],
  },
  Namespace: {
    columns: [NAME, col('Status', 'string', 0, '', 'The status of the namespace'), AGE],
    cells: (o, now) => [o.metadata.name, str(get(o, 'status', 'phase')) || 'Active', age(o, now)],
  },
  Event: {
    columns: [
      col('Last Seen', 'string', 0, '', 'Time when last event occurred'),
      col('Type', 'string', 0, '', 'Type of this event.'),
      col('Reason', 'string', 0, '', 'Reason is why the action was taken.'),
      col('Object', 'string', 0, '', 'The object that this event is about.'),
      col('Subobject', 'string', 1, '', 'The subobject that this event is about.'),
      col('Source', 'string', 1, '', 'The component reporting this event.'),
      col('Message', 'string', 0, '', 'A human-readable description of the status of this operation.'),
      col('First Seen', 'string', 1, '', 'Time when first event occurred'),
      col('Count', 'integer', 1, '', 'The number of times this event has occurred.'),
      col('Name', 'string', 1, 'name', 'Name must be unique within a namespace.'),
    ],
    cells: (o, now) => {
      const first = o.firstTimestamp ? since(o.firstTimestamp, now) : since(o.eventTime, now);
      const last = o.lastTimestamp ? since(o.lastTimestamp, now) : first;
      const io = (o.involvedObject ?? {}) as Obj;
      const target = io.name ? `${str(io.kind).toLowerCase()}/${str(io.name)}` : str(io.kind).toLowerCase();
      const src = (o.source ?? {}) as Obj;
      const component = str(src.component) || str(o.reportingComponent);
      const host = str(src.host) || str(o.reportingInstance);
      const source = host ? `${component}, ${host}` : component;
      const count = typeof o.count === 'number' ? o.count : 1;
      return [
        last,
        str(o.type),
        str(o.reason),
        target,
        str(io.fieldPath),
        source,
        str(o.message).trim(),
        first,
        count,
        o.metadata.name,
      ];
    },
  },
};

const crdPrinters = new Map<ServedKind, Printer>();

function printerFor(kind: ServedKind): Printer {
  if (!kind.crd) return PRINTERS[kind.kind] ?? DEFAULT_PRINTER;
  let p = crdPrinters.get(kind);
  if (!p) crdPrinters.set(kind, (p = crdPrinter(kind)));
  return p;
}

export function tableColumns(kind: ServedKind): ColumnDefinition[] {
  return printerFor(kind).columns;
}

/** An object reduced to its metadata, as metadata-only clients and Table rows receive it. */
export function partialObjectMetadata(o: StoredObject, version: MetaVersion): Record<string, unknown> {
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: o.metadata };
}

function rowObject(o: StoredObject, include: IncludeObject, version: MetaVersion): unknown {
  if (include === 'None') return null;
  if (include === 'Object') return o;
  return partialObjectMetadata(o, version);
}

export function tableRow(
  kind: ServedKind,
  o: StoredObject,
  include: IncludeObject,
  version: MetaVersion = 'v1',
  now = Date.now(),
): TableRow {
  const served = present(kind, o);
  const row: TableRow = { cells: printerFor(kind).cells(served, now), object: rowObject(served, include, version) };
  if (kind.kind === 'Pod') {
    const phase = get(o, 'status', 'phase');
    if (phase === 'Succeeded') row.conditions = [{ type: 'Completed', status: 'True' }];
    else if (phase === 'Failed') row.conditions = [{ type: 'Completed', status: 'False' }];
  }
  return row;
}

export function toTable(
  kind: ServedKind,
  objects: StoredObject[],
  include: IncludeObject,
  metadata: Table['metadata'],
  version: MetaVersion = 'v1',
  withColumns = true,
): Table {
  const now = Date.now();
  const t: Table = { kind: 'Table', apiVersion: `meta.k8s.io/${version}`, metadata, rows: [] };
  if (withColumns) t.columnDefinitions = tableColumns(kind);
  t.rows = objects.map((o) => tableRow(kind, o, include, version, now));
  return t;
}
