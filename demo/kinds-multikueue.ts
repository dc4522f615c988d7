// Kueue's MultiKueue and admission-check kinds as Kueue serves them
// (kueue.x-k8s.io v1beta2, the storage version; the deprecated v1beta1 is
// converted in kinds-queueing.ts): AdmissionCheck (a controller's gate after
// quota reservation; MultiKueue's names its MultiKueueConfig), MultiKueueConfig
// (the worker clusters of one admission check) and MultiKueueCluster (how the
// manager reaches one worker: a kubeconfig in a Secret or on disk; condition
// Active). Schemas are in our own words.
import type { KindSpec } from './kind-types.js';
import { conditionFields } from './schemas.js';
import type { StoredObject } from './object-store.js';

export const MULTIKUEUE_CONTROLLER = 'kueue.x-k8s.io/multikueue';
/** The label Kueue puts on the objects a manager creates in a worker (value: the manager's origin name). */
export const MULTIKUEUE_ORIGIN_LABEL = 'kueue.x-k8s.io/multikueue-origin';
/** The label naming the Workload Kueue should adopt for a job instead of creating one. */
export const PREBUILT_WORKLOAD_LABEL = 'kueue.x-k8s.io/prebuilt-workload-name';
/** `managedBy` of a job only MultiKueue runs (its own controller leaves it alone on the manager). */
export const MULTIKUEUE_MANAGED_BY = 'kueue.x-k8s.io/multikueue';

const GROUP = 'kueue.x-k8s.io';
const VERSION = 'v1beta2';
const condition = { description: 'A condition.', fields: conditionFields };
const age = { name: 'Age', type: 'date' as const, jsonPath: '.metadata.creationTimestamp' };

export const MULTIKUEUE_KINDS: KindSpec[] = [
  {
    group: GROUP,
    version: VERSION,
    plural: 'admissionchecks',
    singular: 'admissioncheck',
    kind: 'AdmissionCheck',
    namespaced: false,
    crd: {
      printerColumns: [age],
      schema: {
        spec: {
          controllerName: ['string', 'The controller that decides this check (MultiKueue: kueue.x-k8s.io/multikueue).'],
          parameters: ['Parameters', 'The object holding the controller’s settings.'],
        },
        status: { conditions: ['[]Condition', 'Active.'] },
        types: {
          Parameters: {
            description: 'A reference to a cluster-scoped settings object.',
            fields: {
              apiGroup: ['string', 'Its API group.'],
              kind: ['string', 'Its kind (MultiKueue: MultiKueueConfig).'],
              name: ['string', 'Its name.'],
            },
          },
          Condition: condition,
        },
      },
    },
  },
  {
    group: GROUP,
    version: VERSION,
    plural: 'multikueueconfigs',
    singular: 'multikueueconfig',
    kind: 'MultiKueueConfig',
    namespaced: false,
    subresources: [],
    crd: {
      printerColumns: [age],
      schema: {
        spec: { clusters: ['[]string', 'The MultiKueueClusters the workloads may be dispatched to.'] },
        status: {},
      },
    },
  },
  {
    group: GROUP,
    version: VERSION,
    plural: 'multikueueclusters',
    singular: 'multikueuecluster',
    kind: 'MultiKueueCluster',
    namespaced: false,
    crd: {
      printerColumns: [
        {
          name: 'Connected',
          type: 'string',
          jsonPath: ".status.conditions[?(@.type=='Active')].status",
          description: 'Whether the manager is connected to the worker',
        },
        age,
      ],
      schema: {
        spec: { clusterSource: ['ClusterSource', 'How the manager connects to the worker.'] },
        status: { conditions: ['[]Condition', 'Active.'] },
        types: {
          ClusterSource: {
            description: 'One way to reach the worker.',
            fields: {
              kubeConfig: ['KubeConfig', 'A kubeconfig.'],
              clusterProfileRef: ['object', 'A ClusterProfile (name).'],
            },
          },
          KubeConfig: {
            description: 'Where the kubeconfig is.',
            required: ['location'],
            fields: {
              location: ['string', 'The Secret’s name (in Kueue’s namespace, key kubeconfig) or a path.'],
              locationType: ['string', 'Secret (the default) or Path.'],
            },
          },
          Condition: condition,
        },
      },
    },
  },
];

/** MultiKueueCluster v1beta1 keeps the kubeconfig directly under spec (v1beta2 moved it to spec.clusterSource). */
export function multiKueueClusterToV1beta1(obj: StoredObject): StoredObject {
  const spec = (obj['spec'] ?? {}) as { clusterSource?: { kubeConfig?: unknown } };
  if (!spec.clusterSource) return obj;
  const { clusterSource, ...rest } = spec;
  return { ...obj, spec: { ...rest, ...(clusterSource.kubeConfig ? { kubeConfig: clusterSource.kubeConfig } : {}) } };
}
