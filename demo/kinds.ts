// The kinds the simulated API server serves, with the discovery facts real
// clusters publish for them (plural, shortNames, categories, verbs, scope,
// subresources) and the field selectors the real apiserver accepts. Both the
// server (discovery, routing, CRDs, OpenAPI, tables) and the simulation (store
// keys) read this list. Custom kinds carry their CRD facts (printer columns,
// schema) here: the served CustomResourceDefinitions, the OpenAPI documents and
// the `kubectl get` columns all come from them.
import { resourceKey, type StoredObject } from './object-store.js';
import type { Field } from './schemas.js';
import { QUEUEING_KINDS } from './kinds-queueing.js';
import { draKinds, draVersionsFor } from './kinds-dra.js';
import { VERSION_INFO } from './server/version.js';
import type { CrdFacts, KindSpec, PrinterColumn, ServedKind } from './kind-types.js';

/** The resource.k8s.io versions this server's minor version serves, preferred first. */
export const SERVED_DRA_VERSIONS = draVersionsFor(Number(VERSION_INFO.minor));

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const STATUS_VERBS = ['get', 'patch', 'update'];
/** apiextensions' default column, and the Age column CRDs usually declare. */
export const AGE_COLUMN: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

/** Kubeflow training-operator jobs share one shape: replica specs keyed by type, a run policy, conditions. */
function kubeflowJobCrd(replicaSpecsField: string, replicaTypes: string): CrdFacts {
  const replicaStatus: Record<string, Field> = {
    active: ['integer', 'Pods running.'],
    succeeded: ['integer', 'Pods that succeeded.'],
    failed: ['integer', 'Pods that failed.'],
    selector: ['string', 'The label selector of the pods.'],
  };
  return {
    printerColumns: [{ name: 'State', type: 'string', jsonPath: '.status.conditions[-1:].type' }, AGE_COLUMN],
    schema: {
      spec: {
        [replicaSpecsField]: ['map[string]ReplicaSpec', `The pods per replica type (${replicaTypes}).`],
        runPolicy: ['RunPolicy', 'Cleanup, back-off, scheduling and suspension of the job.'],
      },
      status: {
        conditions: ['[]JobCondition', 'Created, Running, Restarting, Succeeded, Failed, Suspended.'],
        replicaStatuses: ['map[string]ReplicaStatus', 'Pod counts per replica type.'],
        startTime: ['time', 'When the job started.'],
        completionTime: ['time', 'When the job finished.'],
        lastReconcileTime: ['time', 'When the operator last reconciled the job.'],
      },
      types: {
        ReplicaSpec: {
          description: 'The pods of one replica type.',
          fields: {
            replicas: ['integer', 'How many pods.'],
            restartPolicy: ['string', 'Always, OnFailure, Never or ExitCode.'],
            template: ['PodTemplateSpec', 'The pods.'],
          },
        },
        RunPolicy: {
          description: 'How the job runs.',
          fields: {
            cleanPodPolicy: ['string', 'Which pods are deleted when the job ends.'],
            backoffLimit: ['integer', 'Retries before the job fails.'],
            activeDeadlineSeconds: ['integer', 'Time limit of the job.'],
            ttlSecondsAfterFinished: ['integer', 'Delete the job this long after it finished.'],
            suspend: ['boolean', 'No pods run while true.'],
            schedulingPolicy: ['object', 'Gang scheduling (minAvailable, queue, priorityClass).'],
          },
        },
        ReplicaStatus: { description: 'Pod counts of one replica type.', fields: replicaStatus },
        JobCondition: {
          description: 'A condition of the job.',
          fields: {
            type: ['string', 'The kind of condition.'],
            status: ['string', 'True, False or Unknown.'],
            reason: ['string', 'The kind and a CamelCase reason, e.g. PyTorchJobRunning.'],
            message: ['string', 'A human-readable explanation.'],
            lastUpdateTime: ['time', 'When the condition was last updated.'],
            lastTransitionTime: ['time', 'When the condition last changed status.'],
          },
        },
      },
    },
  };
}

function kind(k: KindSpec): ServedKind {
  return {
    listKind: `${k.kind}List`,
    verbs: ALL_VERBS,
    subresources: [{ name: 'status', kind: k.kind, verbs: STATUS_VERBS }],
    fieldSelectors: [],
    categories: [],
    shortNames: [],
    ...k,
  };
}

export const SERVED_KINDS: readonly ServedKind[] = [
  kind({
    group: '',
    version: 'v1',
    plural: 'pods',
    singular: 'pod',
    kind: 'Pod',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    subresources: [
      { name: 'status', kind: 'Pod', verbs: STATUS_VERBS },
      { name: 'log', kind: 'Pod', verbs: ['get'] },
      // Only GET is served (demo/server/pod-proxy.ts); discovery lists what kube-apiserver does.
      { name: 'proxy', kind: 'PodProxyOptions', verbs: ['create', 'delete', 'get', 'patch', 'update'] },
    ],
    fieldSelectors: [
      'spec.nodeName',
      'spec.restartPolicy',
      'spec.schedulerName',
      'spec.serviceAccountName',
      'spec.hostNetwork',
      'status.phase',
      'status.podIP',
      'status.nominatedNodeName',
    ],
  }),
  kind({
    group: '',
    version: 'v1',
    plural: 'nodes',
    singular: 'node',
    kind: 'Node',
    namespaced: false,
    shortNames: ['no'],
    fieldSelectors: ['spec.unschedulable'],
  }),
  kind({
    group: '',
    version: 'v1',
    plural: 'events',
    singular: 'event',
    kind: 'Event',
    namespaced: true,
    shortNames: ['ev'],
    subresources: [],
    fieldSelectors: [
      'involvedObject.kind',
      'involvedObject.namespace',
      'involvedObject.name',
      'involvedObject.uid',
      'involvedObject.apiVersion',
      'involvedObject.resourceVersion',
      'involvedObject.fieldPath',
      'reason',
      'reportingComponent',
      'source',
      'type',
    ],
  }),
  kind({
    group: '',
    version: 'v1',
    plural: 'namespaces',
    singular: 'namespace',
    kind: 'Namespace',
    namespaced: false,
    shortNames: ['ns'],
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    fieldSelectors: ['status.phase'],
  }),
  kind({
    group: '',
    version: 'v1',
    plural: 'services',
    singular: 'service',
    kind: 'Service',
    namespaced: true,
    shortNames: ['svc'],
    categories: ['all'],
    subresources: [
      { name: 'status', kind: 'Service', verbs: STATUS_VERBS },
      // Only GET is served (demo/server/service-proxy.ts); discovery lists what kube-apiserver does.
      { name: 'proxy', kind: 'ServiceProxyOptions', verbs: ['create', 'delete', 'get', 'patch', 'update'] },
    ],
  }),
  kind({
    group: 'batch',
    version: 'v1',
    plural: 'jobs',
    singular: 'job',
    kind: 'Job',
    namespaced: true,
    categories: ['all'],
    fieldSelectors: ['status.successful'],
  }),
  kind({
    group: 'apps',
    version: 'v1',
    plural: 'statefulsets',
    singular: 'statefulset',
    kind: 'StatefulSet',
    namespaced: true,
    shortNames: ['sts'],
    categories: ['all'],
    subresources: [
      { name: 'status', kind: 'StatefulSet', verbs: STATUS_VERBS },
      { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: STATUS_VERBS },
    ],
  }),
  kind({
    group: 'jobset.x-k8s.io',
    version: 'v1alpha2',
    plural: 'jobsets',
    singular: 'jobset',
    kind: 'JobSet',
    namespaced: true,
    crd: {
      printerColumns: [
        {
          name: 'TerminalState',
          type: 'string',
          jsonPath: '.status.terminalState',
          description: 'Final state of JobSet',
        },
        { name: 'Restarts', type: 'string', jsonPath: '.status.restarts', description: 'Number of restarts' },
        {
          name: 'Completed',
          type: 'string',
          jsonPath: '.status.conditions[?(@.type=="Completed")].status',
          description: 'JobSet Completed',
        },
        { name: 'Suspended', type: 'string', jsonPath: '.spec.suspend', description: 'JobSet suspended' },
        AGE_COLUMN,
      ],
      schema: {
        spec: {
          replicatedJobs: ['[]ReplicatedJob', 'The groups of identical Jobs the JobSet runs.'],
          network: ['JobSetNetwork', 'DNS names of the pods (a headless Service named after the JobSet).'],
          successPolicy: ['SuccessPolicy', 'Which Jobs must complete for the JobSet to complete.'],
          failurePolicy: ['FailurePolicy', 'How many times the JobSet is restarted on a Job failure.'],
          startupPolicy: ['StartupPolicy', 'Whether replicated Jobs start in order (InOrder) or all at once.'],
          suspend: ['boolean', 'No Jobs run while true.'],
          managedBy: ['string', 'The controller that reconciles the JobSet.'],
          ttlSecondsAfterFinished: ['integer', 'Delete the JobSet this long after it finished.'],
        },
        status: {
          conditions: ['[]Condition', 'Completed, Failed, Suspended, StartupPolicyCompleted and others.'],
          restarts: ['integer', 'How many times the JobSet was restarted.'],
          restartsCountTowardsMax: ['integer', 'Restarts that count toward failurePolicy.maxRestarts.'],
          terminalState: ['string', 'Completed or Failed once the JobSet finished.'],
          replicatedJobsStatus: ['[]ReplicatedJobStatus', 'Job counts per replicated Job.'],
        },
        types: {
          ReplicatedJob: {
            description: 'A Job template and how many copies of it run.',
            required: ['name', 'template'],
            fields: {
              name: ['string', 'The name; Jobs are named <jobset>-<name>-<index>.'],
              replicas: ['integer', 'How many Jobs are created from the template.'],
              template: ['JobTemplate', 'The Jobs created.'],
            },
          },
          JobTemplate: {
            description: 'A Job template.',
            fields: {
              metadata: ['ObjectMeta', 'Labels and annotations of the Jobs.'],
              spec: ['JobSpec', 'The Job spec.'],
            },
          },
          JobSetNetwork: {
            description: 'Pod DNS names.',
            fields: {
              enableDNSHostnames: ['boolean', 'Give pods stable DNS hostnames.'],
              subdomain: ['string', 'The headless Service name; the JobSet name by default.'],
              publishNotReadyAddresses: ['boolean', 'Resolve pods before they are ready.'],
            },
          },
          SuccessPolicy: {
            description: 'When the JobSet counts as completed.',
            fields: {
              operator: ['string', 'All or Any.'],
              targetReplicatedJobs: ['[]string', 'The replicated Jobs the operator applies to; all when empty.'],
            },
          },
          FailurePolicy: {
            description: 'Restarts on failure.',
            fields: {
              maxRestarts: ['integer', 'Restarts before the JobSet fails.'],
              restartStrategy: ['string', 'Recreate or BlockingRecreate.'],
              rules: ['[]object', 'Actions per failed Job.'],
            },
          },
          StartupPolicy: {
            description: 'Start order of replicated Jobs.',
            fields: { startupPolicyOrder: ['string', 'AnyOrder or InOrder.'] },
          },
          ReplicatedJobStatus: {
            description: 'Job counts of one replicated Job.',
            fields: {
              name: ['string', 'The replicated Job.'],
              ready: ['integer', 'Jobs whose pods are ready or succeeded.'],
              succeeded: ['integer', 'Jobs that succeeded.'],
              failed: ['integer', 'Jobs that failed.'],
              active: ['integer', 'Jobs running.'],
              suspended: ['integer', 'Jobs suspended.'],
            },
          },
        },
      },
    },
  }),
  kind({
    group: 'kubeflow.org',
    version: 'v1',
    plural: 'pytorchjobs',
    singular: 'pytorchjob',
    kind: 'PyTorchJob',
    namespaced: true,
    crd: kubeflowJobCrd('pytorchReplicaSpecs', 'Master and Worker'),
  }),
  kind({
    group: 'kubeflow.org',
    version: 'v1',
    plural: 'tfjobs',
    singular: 'tfjob',
    kind: 'TFJob',
    namespaced: true,
    crd: kubeflowJobCrd('tfReplicaSpecs', 'Chief, PS, Worker and Evaluator'),
  }),
  kind({
    group: 'leaderworkerset.x-k8s.io',
    version: 'v1',
    plural: 'leaderworkersets',
    singular: 'leaderworkerset',
    kind: 'LeaderWorkerSet',
    namespaced: true,
    shortNames: ['lws'],
    subresources: [
      { name: 'status', kind: 'LeaderWorkerSet', verbs: STATUS_VERBS },
      { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: STATUS_VERBS },
    ],
    crd: {
      printerColumns: [AGE_COLUMN],
      scale: {
        specReplicasPath: '.spec.replicas',
        statusReplicasPath: '.status.replicas',
        labelSelectorPath: '.status.hpaPodSelector',
      },
      schema: {
        spec: {
          replicas: ['integer', 'The number of groups (a leader and its workers).'],
          leaderWorkerTemplate: ['LeaderWorkerTemplate', 'The pods of each group.'],
          startupPolicy: ['string', 'LeaderCreated or LeaderReady: when the workers are created.'],
          rolloutStrategy: ['object', 'How groups are replaced on a template change.'],
          networkConfig: ['object', 'Subdomain policy of the headless Service.'],
        },
        status: {
          conditions: ['[]Condition', 'Available, Progressing and UpdateInProgress.'],
          replicas: ['integer', 'Groups created.'],
          readyReplicas: ['integer', 'Groups whose pods are all ready.'],
          updatedReplicas: ['integer', 'Groups at the current template.'],
          hpaPodSelector: ['string', 'The label selector of the leader pods, for autoscaling.'],
        },
        types: {
          LeaderWorkerTemplate: {
            description: 'The leader and worker pod templates of a group.',
            required: ['workerTemplate'],
            fields: {
              leaderTemplate: ['PodTemplateSpec', 'The leader pod; the worker template when empty.'],
              workerTemplate: ['PodTemplateSpec', 'The worker pods.'],
              size: ['integer', 'Pods per group, the leader included.'],
              restartPolicy: ['string', 'RecreateGroupOnPodRestart or None.'],
            },
          },
        },
      },
    },
  }),
  kind({
    group: 'ray.io',
    version: 'v1',
    plural: 'rayclusters',
    singular: 'raycluster',
    kind: 'RayCluster',
    namespaced: true,
    categories: ['all'],
    crd: {
      printerColumns: [
        { name: 'desired workers', type: 'integer', jsonPath: '.status.desiredWorkerReplicas' },
        { name: 'available workers', type: 'integer', jsonPath: '.status.availableWorkerReplicas' },
        { name: 'cpus', type: 'string', jsonPath: '.status.desiredCPU' },
        { name: 'memory', type: 'string', jsonPath: '.status.desiredMemory' },
        { name: 'gpus', type: 'string', jsonPath: '.status.desiredGPU' },
        { name: 'status', type: 'string', jsonPath: '.status.state' },
        { name: 'age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        { name: 'head pod IP', type: 'string', jsonPath: '.status.head.podIP', priority: 1 },
        { name: 'head service IP', type: 'string', jsonPath: '.status.head.serviceIP', priority: 1 },
      ],
      schema: {
        spec: {
          rayVersion: ['string', 'The Ray version the images run.'],
          headGroupSpec: ['HeadGroupSpec', 'The head pod.'],
          workerGroupSpecs: ['[]WorkerGroupSpec', 'The groups of worker pods.'],
          enableInTreeAutoscaling: ['boolean', 'Run the Ray autoscaler as a sidecar of the head.'],
          suspend: ['boolean', 'Delete every pod while true.'],
        },
        status: {
          state: ['string', 'ready or suspended.'],
          desiredWorkerReplicas: ['integer', 'Worker pods asked for.'],
          availableWorkerReplicas: ['integer', 'Worker pods running.'],
          readyWorkerReplicas: ['integer', 'Worker pods ready.'],
          desiredCPU: ['quantity', 'CPU of every pod together.'],
          desiredMemory: ['quantity', 'Memory of every pod together.'],
          desiredGPU: ['quantity', 'GPUs of every pod together.'],
          head: ['RayHeadInfo', 'Addresses of the head.'],
          endpoints: ['map[string]string', 'Ports of the head service.'],
          conditions: ['[]Condition', 'HeadPodReady, RayClusterProvisioned and others.'],
        },
        types: {
          HeadGroupSpec: {
            description: 'The head pod.',
            fields: {
              rayStartParams: ['map[string]string', 'Arguments of ray start.'],
              serviceType: ['string', 'The type of the head Service.'],
              template: ['PodTemplateSpec', 'The head pod.'],
            },
          },
          WorkerGroupSpec: {
            description: 'A group of identical worker pods.',
            required: ['groupName'],
            fields: {
              groupName: ['string', 'The group name.'],
              replicas: ['integer', 'Worker pods.'],
              minReplicas: ['integer', 'The least the autoscaler keeps.'],
              maxReplicas: ['integer', 'The most the autoscaler creates.'],
              rayStartParams: ['map[string]string', 'Arguments of ray start.'],
              template: ['PodTemplateSpec', 'The worker pods.'],
            },
          },
          RayHeadInfo: {
            description: 'Addresses of the head.',
            fields: {
              podIP: ['string', 'The head pod IP.'],
              serviceIP: ['string', 'The head Service IP.'],
              podName: ['string', 'The head pod.'],
              serviceName: ['string', 'The head Service.'],
            },
          },
        },
      },
    },
  }),
  kind({
    group: 'run.ai',
    version: 'v1alpha1',
    plural: 'kartas',
    singular: 'karta',
    kind: 'Karta',
    namespaced: false,
    shortNames: ['krt'],
    crd: {
      printerColumns: [AGE_COLUMN],
      schema: {
        spec: {
          structureDefinition: ['object', 'The components of the workload kind and how to find them (jq paths).'],
          instructions: ['object', 'Optional actions on the workload kind.'],
        },
        status: {},
      },
    },
  }),
  ...QUEUEING_KINDS.map(kind),
  ...SERVED_DRA_VERSIONS.flatMap(draKinds),
  // Served by the API machinery itself, not stored by the simulation.
  kind({
    group: 'apiextensions.k8s.io',
    version: 'v1',
    plural: 'customresourcedefinitions',
    singular: 'customresourcedefinition',
    kind: 'CustomResourceDefinition',
    namespaced: false,
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
  }),
  kind({
    group: 'authorization.k8s.io',
    version: 'v1',
    plural: 'selfsubjectaccessreviews',
    singular: 'selfsubjectaccessreview',
    kind: 'SelfSubjectAccessReview',
    namespaced: false,
    verbs: ['create'],
    subresources: [],
  }),
  kind({
    group: 'authorization.k8s.io',
    version: 'v1',
    plural: 'selfsubjectrulesreviews',
    singular: 'selfsubjectrulesreview',
    kind: 'SelfSubjectRulesReview',
    namespaced: false,
    verbs: ['create'],
    subresources: [],
  }),
];

export function apiVersionOf(k: ServedKind): string {
  return k.group ? `${k.group}/${k.version}` : k.version;
}

export function storeKeyOf(k: ServedKind): string {
  return resourceKey(k.group, k.servedFrom?.version ?? k.version, k.plural);
}

/** A stored object as a client of `k` reads it: converted when `k` is served from another version. */
export function present(k: ServedKind, obj: StoredObject): StoredObject {
  return k.servedFrom ? k.servedFrom.convert({ ...obj, apiVersion: apiVersionOf(k) }) : obj;
}

/** `plural` for core kinds, `plural.group` otherwise: how RBAC messages and the forbid fault name a kind. */
export function qualifiedResource(k: ServedKind): string {
  return k.group ? `${k.plural}.${k.group}` : k.plural;
}

/** Kinds a CustomResourceDefinition adds (those with CRD facts). */
export function customKinds(): ServedKind[] {
  return SERVED_KINDS.filter((k) => k.crd !== undefined);
}

export function findKind(group: string, version: string, plural: string): ServedKind | undefined {
  return SERVED_KINDS.find((k) => k.group === group && k.version === version && k.plural === plural);
}

/** Groups in discovery order (core first, then as listed), with their versions. */
export function servedGroups(): Array<{ group: string; versions: string[] }> {
  const out: Array<{ group: string; versions: string[] }> = [];
  for (const k of SERVED_KINDS) {
    let g = out.find((x) => x.group === k.group);
    if (!g) {
      g = { group: k.group, versions: [] };
      out.push(g);
    }
    if (!g.versions.includes(k.version)) g.versions.push(k.version);
  }
  return out;
}
