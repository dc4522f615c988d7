// Protobuf encoding of built-in kinds (Pod, Node, Event) as kube-apiserver
// writes them: the `k8s\0` envelope (a runtime.Unknown {typeMeta {apiVersion,
// kind}, raw, contentEncoding, contentType}) around a PodList / NodeList /
// EventList or one object, and watch frames (a 4-byte length, then a
// WatchEvent whose object.raw is itself an envelope). The decoder tests and
// the ingestion bench read these bytes, and the server answers them to clients
// that ask for protobuf first (negotiation.ts). Objects are
// stored as JSON and encoded here from schemas that map each JSON field to its
// number in the official k8s.io/api/core/v1/generated.proto and
// k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto (kubernetes/api
// 10b39a3, kubernetes/apimachinery eed236c). Fields are written in
// field-number order and map keys sorted, as gogo-protobuf does; a JSON null
// Time is the empty message of a zero Time. A JSON field the schemas do not
// name is not written (they cover every field the simulation writes).
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** An append-only protobuf writer over one growing buffer. */
export class WireWriter {
  private buf = Buffer.allocUnsafe(4096);
  pos = 0;

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** Unsigned varint; negative numbers as the 10-byte two's complement of int64, as Go writes int32/int64. */
  varint(value: number): void {
    this.ensure(10);
    if (value < 0) {
      let v = BigInt.asUintN(64, BigInt(Math.trunc(value)));
      while (v >= 0x80n) {
        this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
        v >>= 7n;
      }
      this.buf[this.pos++] = Number(v);
      return;
    }
    let v = Math.trunc(value);
    while (v >= 0x80) {
      this.buf[this.pos++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.pos++] = v;
  }

  key(field: number, wire: number): void {
    this.varint(field * 8 + wire);
  }

  string(field: number, s: string): void {
    this.key(field, 2);
    const max = s.length * 3;
    if (max < 0x80) {
      this.ensure(1 + max);
      const n = this.buf.write(s, this.pos + 1, 'utf8');
      this.buf[this.pos] = n;
      this.pos += 1 + n;
      return;
    }
    const n = Buffer.byteLength(s, 'utf8');
    this.varint(n);
    this.ensure(n);
    this.buf.write(s, this.pos, 'utf8');
    this.pos += n;
  }

  bytes(field: number, b: Uint8Array): void {
    this.key(field, 2);
    this.varint(b.length);
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** A nested message written by `body` (its length is patched in afterwards). */
  message(field: number, body: () => void): void {
    this.key(field, 2);
    this.ensure(1);
    const at = this.pos++;
    body();
    const len = this.pos - at - 1;
    if (len < 0x80) {
      this.buf[at] = len;
      return;
    }
    let size = 1;
    for (let v = len; v >= 0x80; v = Math.floor(v / 0x80)) size++;
    this.ensure(size - 1);
    this.buf.copyWithin(at + size, at + 1, this.pos);
    this.pos += size - 1;
    let v = len;
    for (let i = 0; i < size; i++) {
      this.buf[at + i] = (v % 0x80) | (i < size - 1 ? 0x80 : 0);
      v = Math.floor(v / 0x80);
    }
  }

  /** The bytes written so far (a copy: the writer may be reused). */
  finish(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.pos));
  }
}

type Scalar = 'string' | 'int' | 'bool' | 'time' | 'microTime' | 'quantity' | 'intOrString' | 'fieldsV1';
type FieldType = Scalar | 'stringMap' | 'quantityMap' | Schema;
/** JSON field → [field number, type]; `$inline` entries nest fields of the same JSON object (Go's inline structs). */
export interface Schema {
  [json: string]: readonly [number, FieldType];
}

/** A schema's entries in field-number order (as written). */
const ordered = new WeakMap<Schema, Array<[string, number, FieldType]>>();
function entries(schema: Schema): Array<[string, number, FieldType]> {
  let e = ordered.get(schema);
  if (!e) {
    e = Object.entries(schema)
      .map(([k, [n, t]]): [string, number, FieldType] => [k, n, t])
      .sort((a, b) => a[1] - b[1]);
    ordered.set(schema, e);
  }
  return e;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function encodeValue(w: WireWriter, field: number, type: FieldType, v: unknown): void {
  if (Array.isArray(v) && type !== 'fieldsV1') {
    for (const x of v) encodeValue(w, field, type, x);
    return;
  }
  switch (type) {
    case 'string':
      if (typeof v === 'string') w.string(field, v);
      return;
    case 'int':
      if (typeof v === 'number' && Number.isFinite(v)) {
        w.key(field, 0);
        w.varint(v);
      }
      return;
    case 'bool':
      if (typeof v === 'boolean') {
        w.key(field, 0);
        w.varint(v ? 1 : 0);
      }
      return;
    case 'time':
    case 'microTime': {
      if (v === null) return w.message(field, () => undefined);
      if (typeof v !== 'string') return;
      const ms = Date.parse(v);
      if (Number.isNaN(ms)) return;
      const seconds = Math.floor(ms / 1000);
      const micros = type === 'microTime' ? Number((/\.(\d{1,6})/.exec(v)?.[1] ?? '0').padEnd(6, '0')) : 0;
      return w.message(field, () => {
        if (seconds) {
          w.key(1, 0);
          w.varint(seconds);
        }
        if (micros) {
          w.key(2, 0);
          w.varint(micros * 1000);
        }
      });
    }
    case 'quantity':
      if (typeof v === 'string' || typeof v === 'number') w.message(field, () => w.string(1, String(v)));
      return;
    case 'intOrString':
      if (typeof v === 'number')
        w.message(field, () => {
          w.key(1, 0);
          w.varint(0);
          w.key(2, 0);
          w.varint(v);
        });
      else if (typeof v === 'string')
        w.message(field, () => {
          w.key(1, 0);
          w.varint(1);
          w.string(3, v);
        });
      return;
    case 'fieldsV1':
      // FieldsV1 {raw = 1}: the JSON text of the field set.
      if (v !== undefined && v !== null) w.message(field, () => w.bytes(1, Buffer.from(JSON.stringify(v))));
      return;
    case 'stringMap':
    case 'quantityMap': {
      if (!isObject(v)) return;
      for (const k of Object.keys(v).sort()) {
        const value = v[k];
        if (typeof value !== 'string' && typeof value !== 'number') continue;
        w.message(field, () => {
          w.string(1, k);
          if (type === 'stringMap') w.string(2, String(value));
          else w.message(2, () => w.string(1, String(value)));
        });
      }
      return;
    }
    default:
      if (isObject(v)) w.message(field, () => encodeFields(w, type, v));
  }
}

function encodeFields(w: WireWriter, schema: Schema, obj: Json): void {
  for (const [key, field, type] of entries(schema)) {
    if (key.startsWith('$inline')) {
      const inline = type as Schema;
      if (Object.keys(inline).some((k) => obj[k] !== undefined)) w.message(field, () => encodeFields(w, inline, obj));
      continue;
    }
    const v = obj[key];
    if (v !== undefined) encodeValue(w, field, type, v);
  }
}

// ---- schemas (field numbers from the generated.proto files named above)

const managedFieldsEntry: Schema = {
  manager: [1, 'string'],
  operation: [2, 'string'],
  apiVersion: [3, 'string'],
  time: [4, 'time'],
  fieldsType: [6, 'string'],
  fieldsV1: [7, 'fieldsV1'],
  subresource: [8, 'string'],
};

const ownerReference: Schema = {
  kind: [1, 'string'],
  name: [3, 'string'],
  uid: [4, 'string'],
  apiVersion: [5, 'string'],
  controller: [6, 'bool'],
  blockOwnerDeletion: [7, 'bool'],
};

const objectMeta: Schema = {
  name: [1, 'string'],
  generateName: [2, 'string'],
  namespace: [3, 'string'],
  selfLink: [4, 'string'],
  uid: [5, 'string'],
  resourceVersion: [6, 'string'],
  generation: [7, 'int'],
  creationTimestamp: [8, 'time'],
  deletionTimestamp: [9, 'time'],
  deletionGracePeriodSeconds: [10, 'int'],
  labels: [11, 'stringMap'],
  annotations: [12, 'stringMap'],
  ownerReferences: [13, ownerReference],
  finalizers: [14, 'string'],
  managedFields: [17, managedFieldsEntry],
};

const listMeta: Schema = {
  selfLink: [1, 'string'],
  resourceVersion: [2, 'string'],
  continue: [3, 'string'],
  remainingItemCount: [4, 'int'],
};

const objectFieldSelector: Schema = { apiVersion: [1, 'string'], fieldPath: [2, 'string'] };
const keySelector: Schema = { $inline: [1, { name: [1, 'string'] }], key: [2, 'string'], optional: [3, 'bool'] };
const resourceFieldSelector: Schema = {
  containerName: [1, 'string'],
  resource: [2, 'string'],
  divisor: [3, 'quantity'],
};
const envVar: Schema = {
  name: [1, 'string'],
  value: [2, 'string'],
  valueFrom: [
    3,
    {
      fieldRef: [1, objectFieldSelector],
      resourceFieldRef: [2, resourceFieldSelector],
      configMapKeyRef: [3, keySelector],
      secretKeyRef: [4, keySelector],
    },
  ],
};
const containerPort: Schema = {
  name: [1, 'string'],
  hostPort: [2, 'int'],
  containerPort: [3, 'int'],
  protocol: [4, 'string'],
  hostIP: [5, 'string'],
};
const volumeMount: Schema = {
  name: [1, 'string'],
  readOnly: [2, 'bool'],
  mountPath: [3, 'string'],
  subPath: [4, 'string'],
  mountPropagation: [5, 'string'],
  subPathExpr: [6, 'string'],
  recursiveReadOnly: [7, 'string'],
};
const resourceRequirements: Schema = {
  limits: [1, 'quantityMap'],
  requests: [2, 'quantityMap'],
  claims: [3, { name: [1, 'string'], request: [2, 'string'] }],
};
const probe: Schema = {
  $inline: [
    1,
    {
      exec: [1, { command: [1, 'string'] }],
      httpGet: [2, { path: [1, 'string'], port: [2, 'intOrString'], host: [3, 'string'], scheme: [4, 'string'] }],
      tcpSocket: [3, { port: [1, 'intOrString'], host: [2, 'string'] }],
      grpc: [4, { port: [1, 'int'], service: [2, 'string'] }],
    },
  ],
  initialDelaySeconds: [2, 'int'],
  timeoutSeconds: [3, 'int'],
  periodSeconds: [4, 'int'],
  successThreshold: [5, 'int'],
  failureThreshold: [6, 'int'],
  terminationGracePeriodSeconds: [7, 'int'],
};
const container: Schema = {
  name: [1, 'string'],
  image: [2, 'string'],
  command: [3, 'string'],
  args: [4, 'string'],
  workingDir: [5, 'string'],
  ports: [6, containerPort],
  env: [7, envVar],
  resources: [8, resourceRequirements],
  volumeMounts: [9, volumeMount],
  livenessProbe: [10, probe],
  readinessProbe: [11, probe],
  terminationMessagePath: [13, 'string'],
  imagePullPolicy: [14, 'string'],
  terminationMessagePolicy: [20, 'string'],
  startupProbe: [22, probe],
  restartPolicy: [24, 'string'],
};
const keyToPath: Schema = { key: [1, 'string'], path: [2, 'string'], mode: [3, 'int'] };
const volumeSource: Schema = {
  hostPath: [1, { path: [1, 'string'], type: [2, 'string'] }],
  emptyDir: [2, { medium: [1, 'string'], sizeLimit: [2, 'quantity'] }],
  secret: [6, { secretName: [1, 'string'], items: [2, keyToPath], defaultMode: [3, 'int'], optional: [4, 'bool'] }],
  persistentVolumeClaim: [10, { claimName: [1, 'string'], readOnly: [2, 'bool'] }],
  configMap: [
    19,
    { $inline: [1, { name: [1, 'string'] }], items: [2, keyToPath], defaultMode: [3, 'int'], optional: [4, 'bool'] },
  ],
  projected: [
    26,
    {
      sources: [
        1,
        {
          secret: [1, { $inline: [1, { name: [1, 'string'] }], items: [2, keyToPath], optional: [4, 'bool'] }],
          downwardAPI: [
            2,
            {
              items: [
                1,
                {
                  path: [1, 'string'],
                  fieldRef: [2, objectFieldSelector],
                  resourceFieldRef: [3, resourceFieldSelector],
                  mode: [4, 'int'],
                },
              ],
            },
          ],
          configMap: [3, { $inline: [1, { name: [1, 'string'] }], items: [2, keyToPath], optional: [4, 'bool'] }],
          serviceAccountToken: [4, { audience: [1, 'string'], expirationSeconds: [2, 'int'], path: [3, 'string'] }],
        },
      ],
      defaultMode: [2, 'int'],
    },
  ],
};
const toleration: Schema = {
  key: [1, 'string'],
  operator: [2, 'string'],
  value: [3, 'string'],
  effect: [4, 'string'],
  tolerationSeconds: [5, 'int'],
};
const podSpec: Schema = {
  volumes: [1, { name: [1, 'string'], $inline: [2, volumeSource] }],
  containers: [2, container],
  restartPolicy: [3, 'string'],
  terminationGracePeriodSeconds: [4, 'int'],
  activeDeadlineSeconds: [5, 'int'],
  dnsPolicy: [6, 'string'],
  nodeSelector: [7, 'stringMap'],
  serviceAccountName: [8, 'string'],
  serviceAccount: [9, 'string'],
  nodeName: [10, 'string'],
  hostNetwork: [11, 'bool'],
  securityContext: [14, { runAsUser: [2, 'int'], runAsNonRoot: [3, 'bool'], fsGroup: [5, 'int'] }],
  imagePullSecrets: [15, { name: [1, 'string'] }],
  hostname: [16, 'string'],
  subdomain: [17, 'string'],
  schedulerName: [19, 'string'],
  initContainers: [20, container],
  automountServiceAccountToken: [21, 'bool'],
  tolerations: [22, toleration],
  priorityClassName: [24, 'string'],
  priority: [25, 'int'],
  readinessGates: [28, { conditionType: [1, 'string'] }],
  runtimeClassName: [29, 'string'],
  enableServiceLinks: [30, 'bool'],
  preemptionPolicy: [31, 'string'],
  overhead: [32, 'quantityMap'],
  resourceClaims: [
    39,
    { name: [1, 'string'], resourceClaimName: [3, 'string'], resourceClaimTemplateName: [4, 'string'] },
  ],
  resources: [40, resourceRequirements],
};
const podCondition: Schema = {
  type: [1, 'string'],
  status: [2, 'string'],
  lastProbeTime: [3, 'time'],
  lastTransitionTime: [4, 'time'],
  reason: [5, 'string'],
  message: [6, 'string'],
  observedGeneration: [7, 'int'],
};
const containerState: Schema = {
  waiting: [1, { reason: [1, 'string'], message: [2, 'string'] }],
  running: [2, { startedAt: [1, 'time'] }],
  terminated: [
    3,
    {
      exitCode: [1, 'int'],
      signal: [2, 'int'],
      reason: [3, 'string'],
      message: [4, 'string'],
      startedAt: [5, 'time'],
      finishedAt: [6, 'time'],
      containerID: [7, 'string'],
    },
  ],
};
const containerStatus: Schema = {
  name: [1, 'string'],
  state: [2, containerState],
  lastState: [3, containerState],
  ready: [4, 'bool'],
  restartCount: [5, 'int'],
  image: [6, 'string'],
  imageID: [7, 'string'],
  containerID: [8, 'string'],
  started: [9, 'bool'],
  allocatedResources: [10, 'quantityMap'],
  resources: [11, resourceRequirements],
};
const podStatus: Schema = {
  phase: [1, 'string'],
  conditions: [2, podCondition],
  message: [3, 'string'],
  reason: [4, 'string'],
  hostIP: [5, 'string'],
  podIP: [6, 'string'],
  startTime: [7, 'time'],
  containerStatuses: [8, containerStatus],
  qosClass: [9, 'string'],
  initContainerStatuses: [10, containerStatus],
  nominatedNodeName: [11, 'string'],
  podIPs: [12, { ip: [1, 'string'] }],
  ephemeralContainerStatuses: [13, containerStatus],
  resize: [14, 'string'],
  resourceClaimStatuses: [15, { name: [1, 'string'], resourceClaimName: [2, 'string'] }],
  hostIPs: [16, { ip: [1, 'string'] }],
  observedGeneration: [17, 'int'],
};
const pod: Schema = { metadata: [1, objectMeta], spec: [2, podSpec], status: [3, podStatus] };

const nodeSpec: Schema = {
  podCIDR: [1, 'string'],
  externalID: [2, 'string'],
  providerID: [3, 'string'],
  unschedulable: [4, 'bool'],
  taints: [5, { key: [1, 'string'], value: [2, 'string'], effect: [3, 'string'], timeAdded: [4, 'time'] }],
  podCIDRs: [7, 'string'],
};
const nodeStatus: Schema = {
  capacity: [1, 'quantityMap'],
  allocatable: [2, 'quantityMap'],
  phase: [3, 'string'],
  conditions: [
    4,
    {
      type: [1, 'string'],
      status: [2, 'string'],
      lastHeartbeatTime: [3, 'time'],
      lastTransitionTime: [4, 'time'],
      reason: [5, 'string'],
      message: [6, 'string'],
    },
  ],
  addresses: [5, { type: [1, 'string'], address: [2, 'string'] }],
  daemonEndpoints: [6, { kubeletEndpoint: [1, { Port: [1, 'int'] }] }],
  nodeInfo: [
    7,
    {
      machineID: [1, 'string'],
      systemUUID: [2, 'string'],
      bootID: [3, 'string'],
      kernelVersion: [4, 'string'],
      osImage: [5, 'string'],
      containerRuntimeVersion: [6, 'string'],
      kubeletVersion: [7, 'string'],
      kubeProxyVersion: [8, 'string'],
      operatingSystem: [9, 'string'],
      architecture: [10, 'string'],
    },
  ],
  images: [8, { names: [1, 'string'], sizeBytes: [2, 'int'] }],
  volumesInUse: [9, 'string'],
};
const node: Schema = { metadata: [1, objectMeta], spec: [2, nodeSpec], status: [3, nodeStatus] };

const objectReference: Schema = {
  kind: [1, 'string'],
  namespace: [2, 'string'],
  name: [3, 'string'],
  uid: [4, 'string'],
  apiVersion: [5, 'string'],
  resourceVersion: [6, 'string'],
  fieldPath: [7, 'string'],
};
const event: Schema = {
  metadata: [1, objectMeta],
  involvedObject: [2, objectReference],
  reason: [3, 'string'],
  message: [4, 'string'],
  source: [5, { component: [1, 'string'], host: [2, 'string'] }],
  firstTimestamp: [6, 'time'],
  lastTimestamp: [7, 'time'],
  count: [8, 'int'],
  type: [9, 'string'],
  eventTime: [10, 'microTime'],
  series: [11, { count: [1, 'int'], lastObservedTime: [2, 'microTime'] }],
  action: [12, 'string'],
  related: [13, objectReference],
  reportingComponent: [14, 'string'],
  reportingInstance: [15, 'string'],
};

const status: Schema = {
  metadata: [1, listMeta],
  status: [2, 'string'],
  message: [3, 'string'],
  reason: [4, 'string'],
  details: [5, { name: [1, 'string'], group: [2, 'string'], kind: [3, 'string'], uid: [6, 'string'] }],
  code: [6, 'int'],
};

/** The core/v1 kinds served as protobuf, by kind. */
const SCHEMAS: Record<string, Schema> = { Pod: pod, Node: node, Event: event };

/** Whether objects of this apiVersion and kind can be written as protobuf here. */
export function hasProtobufSchema(apiVersion: string, kind: string): boolean {
  return apiVersion === 'v1' && Object.hasOwn(SCHEMAS, kind);
}

/** One object's message bytes (no envelope). */
export function encodeObject(kind: string, obj: Json, w = new WireWriter()): Buffer {
  const schema = kind === 'Status' ? status : SCHEMAS[kind];
  if (!schema) throw new Error(`no protobuf schema for ${kind}`);
  encodeFields(w, schema, obj);
  return w.finish();
}

/** The `k8s\0` envelope around a message: runtime.Unknown {typeMeta = 1, raw = 2, contentEncoding = 3, contentType = 4}. */
export function envelope(apiVersion: string, kind: string, raw: Uint8Array | Uint8Array[]): Buffer {
  const parts = Array.isArray(raw) ? raw : [raw];
  const rawLength = parts.reduce((n, p) => n + p.length, 0);
  const w = new WireWriter();
  w.message(1, () => {
    w.string(1, apiVersion);
    w.string(2, kind);
  });
  w.key(2, 2);
  w.varint(rawLength);
  const head = w.finish();
  // contentEncoding and contentType: empty, written as gogo writes non-pointer strings.
  const tail = Buffer.from([0x1a, 0x00, 0x22, 0x00]);
  return Buffer.concat([MAGIC, head, ...parts, tail]);
}

/** An object in its envelope (GET of one object). */
export function encodeEnvelopedObject(apiVersion: string, kind: string, obj: Json): Buffer {
  return envelope(apiVersion, kind, encodeObject(kind, obj));
}

/** A list in its envelope: {metadata = 1 ListMeta, items = 2}. */
export function encodeList(
  apiVersion: string,
  itemKind: string,
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number },
  items: Json[],
): Buffer {
  const w = new WireWriter();
  w.message(1, () => encodeFields(w, listMeta, metadata));
  for (const item of items) w.message(2, () => encodeFields(w, SCHEMAS[itemKind], item));
  return envelope(apiVersion, `${itemKind}List`, w.finish());
}

/** One watch frame: 4-byte big-endian length, then WatchEvent {type = 1, object = 2 RawExtension {raw = 1 envelope}}. */
export function encodeWatchFrame(type: string, apiVersion: string, kind: string, obj: Json): Buffer {
  const inner = encodeEnvelopedObject(apiVersion, kind, obj);
  const w = new WireWriter();
  w.string(1, type);
  w.message(2, () => w.bytes(1, inner));
  return lengthPrefixed(w.finish());
}

/** A watch stream's framing: the 4-byte big-endian length, then the bytes. */
export function lengthPrefixed(body: Uint8Array): Buffer {
  const frame = Buffer.allocUnsafe(4 + body.length);
  frame.writeUInt32BE(body.length, 0);
  frame.set(body, 4);
  return frame;
}
