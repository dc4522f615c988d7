// Queueing and gang-scheduling kinds of the simulated cluster, as the projects
// serve them: Kueue's CRDs (kueue.x-k8s.io v1beta2, the storage version; printer
// columns and short names as Kueue's kubebuilder markers declare), Kueue's
// visibility API (an aggregated API whose resources are only reachable through
// their `pendingworkloads` subresource), and NVIDIA KAI Scheduler's PodGroup
// (scheduling.run.ai/v2alpha2) and Queue (scheduling.run.ai/v2). Kueue's CRDs
// are also served as the deprecated v1beta1, converted from the v1beta2
// objects as Kueue's conversion webhook does. demo/kinds.ts
// lists them with the other kinds. Schemas are in our own words.
import type { KindSpec, PrinterColumn } from './kind-types.js';
import { conditionFields, type Field } from './schemas.js';
import type { StoredObject } from './object-store.js';
import { MULTIKUEUE_KINDS, multiKueueClusterToV1beta1 } from './kinds-multikueue.js';

export const KUEUE_GROUP = 'kueue.x-k8s.io';
export const KUEUE_VERSION = 'v1beta2';
export const VISIBILITY_GROUP = 'visibility.kueue.x-k8s.io';
/** Kueue serves its visibility API in both versions (one APIService each). */
export const VISIBILITY_VERSIONS = ['v1beta2', 'v1beta1'];
export const KAI_GROUP = 'scheduling.run.ai';
/** The label that puts a job into a Kueue LocalQueue. */
/** The demo's one Topology's levels: zone, rack, host. */
export const DEMO_TOPOLOGY_LEVELS = [
  'topology.kubernetes.io/zone',
  'network.topology.kubernetes.io/rack',
  'kubernetes.io/hostname',
] as const;
export const QUEUE_NAME_LABEL = 'kueue.x-k8s.io/queue-name';
/** The annotation KAI's pod grouper puts on every pod of a PodGroup. */
export const KAI_POD_GROUP_ANNOTATION = 'pod-group-name';
/** KAI's default queue label, on pods and PodGroups. */
export const KAI_QUEUE_LABEL = 'kai.scheduler/queue';
export const KAI_SCHEDULER_NAME = 'kai-scheduler';

const age = (what: string): PrinterColumn => ({
  name: 'Age',
  type: 'date',
  jsonPath: '.metadata.creationTimestamp',
  description: `Time this ${what} was created`,
});

const kueueConditionFields: Record<string, Field> = {
  ...conditionFields,
  observedGeneration: ['integer', 'The generation the condition was set for.'],
};

const flavorUsage = {
  FlavorUsage: {
    description: 'Resources used (or reserved) in one flavor.',
    fields: {
      name: ['string', 'The ResourceFlavor.'],
      resources: ['[]ResourceUsage', 'Usage per resource.'],
    } as Record<string, Field>,
  },
  ResourceUsage: {
    description: 'Usage of one resource.',
    fields: {
      name: ['string', 'The resource, e.g. nvidia.com/gpu.'],
      total: ['quantity', 'Used (or reserved), borrowed quota included.'],
      borrowed: ['quantity', 'Borrowed from the cohort.'],
    } as Record<string, Field>,
  },
};

const queueCounts: Record<string, Field> = {
  pendingWorkloads: ['integer', 'Workloads waiting for quota.'],
  reservingWorkloads: ['integer', 'Workloads holding a quota reservation.'],
  admittedWorkloads: ['integer', 'Admitted workloads that have not finished.'],
  flavorsReservation: ['[]FlavorUsage', 'Quota reserved per flavor.'],
  flavorsUsage: ['[]FlavorUsage', 'Quota used by admitted workloads per flavor.'],
  conditions: ['[]Condition', 'Active.'],
};

/** Kueue's CRDs in v1beta2, the storage version. */
const KUEUE_KINDS: KindSpec[] = [
  {
    group: KUEUE_GROUP,
    version: KUEUE_VERSION,
    plural: 'topologies',
    singular: 'topology',
    kind: 'Topology',
    namespaced: false,
    shortNames: [],
    subresources: [],
    crd: {
      printerColumns: [],
      schema: {
        spec: { levels: ['[]object', 'Node labels of the levels, most general first (nodeLabel).'] },
        status: {},
      },
    },
  },
  {
    group: KUEUE_GROUP,
    version: KUEUE_VERSION,
    plural: 'resourceflavors',
    singular: 'resourceflavor',
    kind: 'ResourceFlavor',
    namespaced: false,
    shortNames: ['flavor', 'flavors', 'rf'],
    subresources: [],
    crd: {
      printerColumns: [],
      schema: {
        spec: {
          nodeLabels: ['map[string]string', 'Labels of the nodes this flavor stands for (injected as nodeSelector).'],
          nodeTaints: ['[]object', 'Taints of those nodes.'],
          tolerations: ['[]object', 'Tolerations added to admitted pods.'],
          topologyName: ['string', 'The Topology of these nodes, for topology-aware scheduling.'],
        },
        status: {},
      },
    },
  },
  {
    group: KUEUE_GROUP,
    version: KUEUE_VERSION,
    plural: 'clusterqueues',
    singular: 'clusterqueue',
    kind: 'ClusterQueue',
    namespaced: false,
    shortNames: ['cq'],
    crd: {
      printerColumns: [
        {
          name: 'Cohort',
          type: 'string',
          jsonPath: '.spec.cohortName',
          description: 'Cohort that this ClusterQueue belongs to',
        },
        {
          name: 'Strategy',
          type: 'string',
          jsonPath: '.spec.queueingStrategy',
          description: 'The queueing strategy used to prioritize workloads',
          priority: 1,
        },
        {
          name: 'Pending Workloads',
          type: 'integer',
          jsonPath: '.status.pendingWorkloads',
          description: 'Number of pending workloads',
        },
        {
          name: 'Admitted Workloads',
          type: 'integer',
          jsonPath: '.status.admittedWorkloads',
          description: "Number of admitted workloads that haven't finished yet",
          priority: 1,
        },
      ],
      schema: {
        spec: {
          resourceGroups: ['[]ResourceGroup', 'Quota per flavor for groups of resources.'],
          cohortName: ['string', 'The cohort whose unused quota this queue may borrow.'],
          queueingStrategy: ['string', 'StrictFIFO or BestEffortFIFO (the default).'],
          namespaceSelector: ['object', 'Namespaces whose LocalQueues may point here.'],
          preemption: ['object', 'When admitted workloads may be preempted.'],
          stopPolicy: ['string', 'None, Hold or HoldAndDrain.'],
        },
        status: queueCounts,
        types: {
          ResourceGroup: {
            description: 'Resources whose quota is assigned together, flavor by flavor.',
            required: ['coveredResources', 'flavors'],
            fields: {
              coveredResources: ['[]string', 'The resources of this group.'],
              flavors: ['[]FlavorQuotas', 'Quotas per flavor, tried in order.'],
            },
          },
          FlavorQuotas: {
            description: 'The quotas of one flavor.',
            required: ['name', 'resources'],
            fields: {
              name: ['string', 'The ResourceFlavor.'],
              resources: ['[]ResourceQuota', 'Quota per resource.'],
            },
          },
          ResourceQuota: {
            description: 'The quota of one resource in one flavor.',
            required: ['name', 'nominalQuota'],
            fields: {
              name: ['string', 'The resource.'],
              nominalQuota: ['quantity', 'What this queue may use without borrowing.'],
              borrowingLimit: ['quantity', 'The most it may borrow from the cohort.'],
              lendingLimit: ['quantity', 'The most it lends to the cohort.'],
            },
          },
          ...flavorUsage,
          Condition: { description: 'A condition.', fields: kueueConditionFields },
        },
      },
    },
  },
  {
    group: KUEUE_GROUP,
    version: KUEUE_VERSION,
    plural: 'localqueues',
    singular: 'localqueue',
    kind: 'LocalQueue',
    namespaced: true,
    shortNames: ['queue', 'queues', 'lq'],
    crd: {
      printerColumns: [
        { name: 'ClusterQueue', type: 'string', jsonPath: '.spec.clusterQueue', description: 'Backing ClusterQueue' },
        {
          name: 'Pending Workloads',
          type: 'integer',
          jsonPath: '.status.pendingWorkloads',
          description: 'Number of pending workloads',
        },
        {
          name: 'Admitted Workloads',
          type: 'integer',
          jsonPath: '.status.admittedWorkloads',
          description: "Number of admitted workloads that haven't finished yet.",
        },
      ],
      schema: {
        spec: {
          clusterQueue: ['string', 'The ClusterQueue whose quota this queue uses.'],
          stopPolicy: ['string', 'None, Hold or HoldAndDrain.'],
        },
        status: queueCounts,
        types: { ...flavorUsage, Condition: { description: 'A condition.', fields: kueueConditionFields } },
      },
    },
  },
  {
    group: KUEUE_GROUP,
    version: KUEUE_VERSION,
    plural: 'workloads',
    singular: 'workload',
    kind: 'Workload',
    namespaced: true,
    shortNames: ['kwl', 'kueueworkload', 'kueueworkloads'],
    crd: {
      printerColumns: [
        {
          name: 'Queue',
          type: 'string',
          jsonPath: '.spec.queueName',
          description: 'Name of the queue this workload was submitted to',
        },
        {
          name: 'Reserved in',
          type: 'string',
          jsonPath: '.status.admission.clusterQueue',
          description: 'Name of the ClusterQueue where the workload is reserving quota',
        },
        {
          name: 'Admitted',
          type: 'string',
          jsonPath: ".status.conditions[?(@.type=='Admitted')].status",
          description: 'Admission status',
        },
        {
          name: 'Finished',
          type: 'string',
          jsonPath: ".status.conditions[?(@.type=='Finished')].status",
          description: 'Workload finished',
        },
        age('workload'),
      ],
      schema: {
        spec: {
          podSets: ['[]PodSet', 'The groups of identical pods of the job.'],
          queueName: ['string', 'The LocalQueue the workload was submitted to.'],
          priority: ['integer', 'The priority, from the priority class.'],
          priorityClassRef: ['object', 'The priority class (group, kind, name).'],
          active: ['boolean', 'False deactivates the workload.'],
        },
        status: {
          conditions: ['[]Condition', 'QuotaReserved, Admitted, PodsReady, Evicted, Preempted, Requeued, Finished.'],
          admission: ['Admission', 'Where the quota was reserved.'],
          resourceRequests: ['[]PodSetRequest', 'Resources of one pod of each pod set.'],
          admissionChecks: ['[]object', 'States of the admission checks.'],
          requeueState: ['object', 'Requeue count and time.'],
        },
        types: {
          PodSet: {
            description: 'A group of identical pods.',
            required: ['count'],
            fields: {
              name: ['string', 'The pod set (the replica type or replicated job).'],
              count: ['integer', 'How many pods.'],
              minCount: ['integer', 'The fewest pods that may run (partial admission).'],
              template: ['PodTemplateSpec', 'The pods.'],
              topologyRequest: ['object', 'Topology placement asked.'],
            },
          },
          Admission: {
            description: 'The quota reservation.',
            required: ['clusterQueue', 'podSetAssignments'],
            fields: {
              clusterQueue: ['string', 'The ClusterQueue.'],
              podSetAssignments: ['[]PodSetAssignment', 'Flavors and usage per pod set.'],
            },
          },
          PodSetAssignment: {
            description: 'The flavors assigned to one pod set.',
            required: ['name'],
            fields: {
              name: ['string', 'The pod set.'],
              flavors: ['map[string]string', 'Flavor per resource.'],
              resourceUsage: ['map[string]quantity', 'Quota used by the whole pod set.'],
              count: ['integer', 'Pods admitted.'],
            },
          },
          PodSetRequest: {
            description: 'Resources one pod set asks for.',
            required: ['name'],
            fields: {
              name: ['string', 'The pod set.'],
              resources: ['map[string]quantity', 'Total of the pod set.'],
            },
          },
          Condition: { description: 'A condition.', fields: kueueConditionFields },
        },
      },
    },
  },
  ...MULTIKUEUE_KINDS,
];

type Json = Record<string, unknown>;

/** A shorthand field list with one field renamed (v1beta1 spelled some fields differently). */
function renamed(fields: Record<string, Field>, from: string, to: string): Record<string, Field> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k === from ? to : k, v]));
}

/** One section (spec or status) of an object with a field renamed, as Kueue's conversion webhook does. */
function renameIn(obj: StoredObject, section: 'spec' | 'status', from: string, to: string): StoredObject {
  const part = obj[section] as Json | undefined;
  if (!part || !(from in part)) return obj;
  const { [from]: value, ...others } = part;
  return { ...obj, [section]: { ...others, [to]: value } };
}

/** v1beta1 spellings of the v1beta2 fields the simulated objects use. */
const V1BETA1: Record<string, { section: 'spec' | 'status'; from: string; to: string } | undefined> = {
  ClusterQueue: { section: 'spec', from: 'cohortName', to: 'cohort' },
  LocalQueue: { section: 'status', from: 'flavorsUsage', to: 'flavorUsage' },
};

/** Workload v1beta1 names its priority class by name and source instead of a reference. */
function workloadToV1beta1(obj: StoredObject): StoredObject {
  const spec = obj['spec'] as Json & { priorityClassRef?: { group?: string; name?: string } };
  if (!spec.priorityClassRef) return obj;
  const { priorityClassRef: ref, ...others } = spec;
  const source = ref.group === KUEUE_GROUP ? 'kueue.x-k8s.io/workloadpriorityclass' : 'scheduling.k8s.io/priorityclass';
  return { ...obj, spec: { ...others, priorityClassName: ref.name, priorityClassSource: source } };
}

/** The deprecated v1beta1 of a Kueue CRD, served from the v1beta2 objects. */
function v1beta1Of(k: KindSpec): KindSpec {
  const rename = V1BETA1[k.kind];
  const crd = k.crd!;
  let schema = crd.schema;
  let printerColumns = crd.printerColumns;
  if (rename) {
    schema = { ...schema, [rename.section]: renamed(schema[rename.section], rename.from, rename.to) };
    printerColumns = printerColumns.map((c) =>
      c.jsonPath === `.${rename.section}.${rename.from}` ? { ...c, jsonPath: `.${rename.section}.${rename.to}` } : c,
    );
  }
  if (k.kind === 'Workload') {
    const { priorityClassRef: _ref, ...spec } = schema.spec;
    schema = {
      ...schema,
      spec: {
        ...spec,
        priorityClassName: ['string', 'The priority class.'],
        priorityClassSource: ['string', 'Where the priority class is: a PriorityClass or a WorkloadPriorityClass.'],
      },
    };
  }
  if (k.kind === 'MultiKueueCluster')
    schema = { ...schema, spec: { kubeConfig: ['KubeConfig', 'Where the kubeconfig is.'] } };
  return {
    ...k,
    version: 'v1beta1',
    crd: { ...crd, schema, printerColumns },
    servedFrom: {
      version: KUEUE_VERSION,
      convert: (obj) =>
        k.kind === 'Workload'
          ? workloadToV1beta1(obj)
          : k.kind === 'MultiKueueCluster'
            ? multiKueueClusterToV1beta1(obj)
            : rename
              ? renameIn(obj, rename.section, rename.from, rename.to)
              : obj,
    },
  };
}

export const QUEUEING_KINDS: KindSpec[] = [
  ...KUEUE_KINDS,
  ...KUEUE_KINDS.map(v1beta1Of),
  {
    group: KAI_GROUP,
    version: 'v2alpha2',
    plural: 'podgroups',
    singular: 'podgroup',
    kind: 'PodGroup',
    namespaced: true,
    shortNames: ['pg'],
    crd: {
      printerColumns: [],
      schema: {
        spec: {
          minMember: ['integer', 'Pods that must be placed together, or none is.'],
          queue: ['string', 'The KAI Queue.'],
          priorityClassName: ['string', 'The priority class of the group.'],
          preemptibility: ['string', 'preemptible or non-preemptible.'],
          markUnschedulable: ['boolean', 'Mark the pods unschedulable when the group cannot be placed.'],
          topologyConstraint: ['object', 'Topology placement asked.'],
          subGroups: ['[]object', 'Groups within the group, each with its own minMember.'],
        },
        status: {
          phase: ['string', 'Pending, Running and others.'],
          conditions: ['[]Condition', 'Conditions of the group.'],
          schedulingConditions: ['[]SchedulingCondition', 'Why the scheduler could not place the group.'],
          running: ['integer', 'Pods running.'],
          succeeded: ['integer', 'Pods that succeeded.'],
          failed: ['integer', 'Pods that failed.'],
          pending: ['integer', 'Pods pending.'],
          resourcesStatus: ['object', 'Requested and allocated resources.'],
        },
        types: {
          Condition: {
            description: 'A condition.',
            fields: { ...conditionFields, transitionID: ['string', 'The scheduler cycle that set it.'] },
          },
          SchedulingCondition: {
            description: 'A scheduling verdict on one node pool.',
            fields: {
              type: ['string', 'UnschedulableOnNodePool.'],
              nodePool: ['string', 'The node pool.'],
              reason: ['string', 'Unschedulable.'],
              message: ['string', 'Why the group could not be placed.'],
              reasons: ['[]object', 'Structured explanations (reason, message, details).'],
              status: ['string', 'True, False or Unknown.'],
              transitionID: ['string', 'The scheduler cycle that set it.'],
              lastTransitionTime: ['time', 'When it was set.'],
            },
          },
        },
      },
    },
  },
  {
    group: KAI_GROUP,
    version: 'v2',
    plural: 'queues',
    singular: 'queue',
    kind: 'Queue',
    namespaced: false,
    crd: {
      printerColumns: [
        { name: 'Priority', type: 'string', jsonPath: '.spec.priority' },
        { name: 'Parent', type: 'string', jsonPath: '.spec.parentQueue' },
        { name: 'Children', type: 'string', jsonPath: '.status.childQueues' },
        { name: 'DisplayName', type: 'string', jsonPath: '.spec.displayName' },
      ],
      schema: {
        spec: {
          displayName: ['string', 'The name shown to users.'],
          parentQueue: ['string', 'The parent queue in the hierarchy.'],
          resources: ['QueueResources', 'Quota, limit and over-quota weight per resource.'],
          priority: ['integer', 'Order among sibling queues.'],
        },
        status: {
          conditions: ['[]object', 'Conditions of the queue.'],
          childQueues: ['[]string', 'Queues whose parent this is.'],
          allocated: ['map[string]quantity', 'Allocated resources.'],
          allocatedNonPreemptible: ['map[string]quantity', 'Allocated to non-preemptible groups.'],
          requested: ['map[string]quantity', 'Requested resources.'],
        },
        types: {
          QueueResources: {
            description: 'Quotas of a queue.',
            fields: {
              gpu: ['QueueResource', 'GPUs (in devices).'],
              cpu: ['QueueResource', 'CPU (in millicores).'],
              memory: ['QueueResource', 'Memory (in megabytes).'],
            },
          },
          QueueResource: {
            description: 'Quota of one resource; -1 means unlimited.',
            fields: {
              quota: ['number', 'Deserved amount.'],
              limit: ['number', 'The most the queue may get.'],
              overQuotaWeight: ['number', 'Share of unused resources beyond the quota.'],
            },
          },
        },
      },
    },
  },
  // Kueue's visibility API: the objects themselves have no verbs, only their subresource.
  ...VISIBILITY_VERSIONS.flatMap((version): KindSpec[] => [
    {
      group: VISIBILITY_GROUP,
      version,
      plural: 'clusterqueues',
      singular: 'clusterqueue',
      kind: 'ClusterQueue',
      namespaced: false,
      verbs: [],
      subresources: [{ name: 'pendingworkloads', kind: 'PendingWorkloadsSummary', verbs: ['get'] }],
    },
    {
      group: VISIBILITY_GROUP,
      version,
      plural: 'localqueues',
      singular: 'localqueue',
      kind: 'LocalQueue',
      namespaced: true,
      verbs: [],
      subresources: [{ name: 'pendingworkloads', kind: 'PendingWorkloadsSummary', verbs: ['get'] }],
    },
  ]),
];
