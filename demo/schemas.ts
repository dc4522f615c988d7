// OpenAPI schemas of the kinds the simulated cluster serves: named definitions
// for the built-in types (as kube-apiserver publishes them under /openapi/v2
// and /openapi/v3) and the structural openAPIV3Schema of each CRD (inlined, as
// a CustomResourceDefinition carries it). Fields are written in a shorthand:
// `string`, `integer`, `boolean`, `number`, `time`, `quantity`, `int-or-string`,
// `object` (free-form), `[]T`, `map[string]T`, or a definition's short name.
// The descriptions are our own words.

export interface JsonSchema {
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema;
  items?: JsonSchema;
  required?: string[];
  $ref?: string;
  allOf?: JsonSchema[];
  'x-kubernetes-preserve-unknown-fields'?: true;
  'x-kubernetes-int-or-string'?: true;
  'x-kubernetes-group-version-kind'?: Array<{ group: string; version: string; kind: string }>;
  'x-kubernetes-embedded-resource'?: boolean;
}

/** A field: its shorthand type and description. */
export type Field = [type: string, description: string];

export interface Definition {
  description: string;
  fields: Record<string, Field>;
  required?: string[];
  /** Set on the top-level kinds (the OpenAPI `x-kubernetes-group-version-kind`). */
  gvk?: { group: string; version: string; kind: string };
}

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const CORE = 'io.k8s.api.core.v1';

function kindFields(kind: string, spec?: string, status?: string): Record<string, Field> {
  const f: Record<string, Field> = {
    apiVersion: ['string', 'The versioned schema of this object, e.g. "v1" or "batch/v1".'],
    kind: ['string', `The REST type of this object, "${kind}".`],
    metadata: ['ObjectMeta', "The object's name, namespace, labels, annotations and owners."],
  };
  if (spec) f.spec = [spec, `The desired state of the ${kind}.`];
  if (status) f.status = [status, `The observed state of the ${kind}, written by its controller.`];
  return f;
}

/** The fields of a metav1.Condition-style condition. */
export const conditionFields: Record<string, Field> = {
  type: ['string', 'The kind of condition.'],
  status: ['string', 'True, False or Unknown.'],
  reason: ['string', 'A one-word CamelCase reason for the last transition.'],
  message: ['string', 'A human-readable explanation of the last transition.'],
  lastTransitionTime: ['time', 'When the condition last changed status.'],
};

/**
 * resource.k8s.io's top-level kinds at every version demo/kinds-dra.ts knows
 * (the served ones are picked by SERVED_KINDS). Their bodies differ between
 * versions (v1beta1's `basic` devices, v1's `exactly` requests), so spec and
 * status are free-form here rather than one version's shape.
 */
function draDefinitions(): Record<string, Definition> {
  const out: Record<string, Definition> = {};
  const kinds: Array<[kind: string, description: string, status: boolean]> = [
    ['DeviceClass', 'A class of devices claims can ask for, chosen by CEL selectors.', false],
    ['ResourceClaim', 'A request for devices and, once allocated, the devices handed out.', true],
    ['ResourceClaimTemplate', 'The claim made for each pod that names this template.', false],
    ['ResourceSlice', "Devices a driver publishes for one pool (usually one node's).", false],
  ];
  for (const version of ['v1', 'v1beta2', 'v1beta1'])
    for (const [kind, description, status] of kinds)
      out[`io.k8s.api.resource.${version}.${kind}`] = {
        description,
        gvk: { group: 'resource.k8s.io', version, kind },
        required: ['spec'],
        fields: kindFields(kind, 'object', status ? 'object' : undefined),
      };
  return out;
}

/** Built-in definitions, keyed by their full OpenAPI name. */
export const BUILTIN_DEFINITIONS: Record<string, Definition> = {
  [`${META}.ObjectMeta`]: {
    description: 'Metadata every persisted object carries.',
    fields: {
      name: ['string', 'Unique within a namespace; cannot be changed.'],
      generateName: ['string', 'A prefix the server completes into a unique name when name is empty.'],
      namespace: ['string', 'The namespace the object lives in; empty for cluster-scoped objects.'],
      uid: ['string', 'A unique identifier the server assigns on creation.'],
      resourceVersion: ['string', 'An opaque version for optimistic concurrency, lists and watches.'],
      generation: ['integer', 'Incremented on every change of the desired state.'],
      creationTimestamp: ['time', 'When the server created the object.'],
      deletionTimestamp: ['time', 'When the object will be deleted; set when a graceful deletion is asked.'],
      deletionGracePeriodSeconds: ['integer', 'Seconds allowed for a graceful deletion.'],
      labels: ['map[string]string', 'Key/value pairs that selectors match.'],
      annotations: ['map[string]string', 'Key/value pairs for tools; not used by selectors.'],
      ownerReferences: ['[]OwnerReference', 'The objects this object depends on (garbage collection).'],
      finalizers: ['[]string', 'Must be empty before the object is removed from storage.'],
    },
  },
  [`${META}.OwnerReference`]: {
    description: 'Identifies an owning object.',
    required: ['apiVersion', 'kind', 'name', 'uid'],
    fields: {
      apiVersion: ['string', "The owner's API version."],
      kind: ['string', "The owner's kind."],
      name: ['string', "The owner's name."],
      uid: ['string', "The owner's uid."],
      controller: ['boolean', 'True when the owner is the managing controller.'],
      blockOwnerDeletion: ['boolean', 'Whether the owner waits for this object under foreground deletion.'],
    },
  },
  [`${META}.LabelSelector`]: {
    description: 'A label query; the results of matchLabels and matchExpressions are ANDed.',
    fields: {
      matchLabels: ['map[string]string', 'Equality requirements.'],
      matchExpressions: ['[]LabelSelectorRequirement', 'Set-based requirements.'],
    },
  },
  [`${META}.LabelSelectorRequirement`]: {
    description: 'A key, an operator and values.',
    required: ['key', 'operator'],
    fields: {
      key: ['string', 'The label key.'],
      operator: ['string', 'In, NotIn, Exists or DoesNotExist.'],
      values: ['[]string', 'The values for In and NotIn.'],
    },
  },
  [`${META}.Condition`]: { description: 'One aspect of the current state of an object.', fields: conditionFields },
  [`${CORE}.Pod`]: {
    description: 'A group of containers scheduled together onto one node.',
    gvk: { group: '', version: 'v1', kind: 'Pod' },
    fields: kindFields('Pod', 'PodSpec', 'PodStatus'),
  },
  [`${CORE}.PodSpec`]: {
    description: 'The desired state of a pod.',
    required: ['containers'],
    fields: {
      containers: ['[]Container', 'The containers of the pod; at least one.'],
      initContainers: ['[]Container', 'Containers run in order before the app containers start.'],
      nodeName: ['string', 'The node the pod is bound to; set by the scheduler.'],
      nodeSelector: ['map[string]string', 'Labels a node must carry for the pod to be placed there.'],
      affinity: ['object', 'Node and pod (anti-)affinity constraints.'],
      tolerations: ['[]Toleration', 'Taints the pod tolerates.'],
      schedulerName: ['string', 'The scheduler that places the pod.'],
      priorityClassName: ['string', 'The priority class of the pod.'],
      restartPolicy: ['string', 'Always, OnFailure or Never.'],
      serviceAccountName: ['string', 'The service account the pod runs as.'],
      hostname: ['string', 'The pod hostname.'],
      subdomain: ['string', 'With hostname, the pod FQDN under a headless service.'],
      hostNetwork: ['boolean', "Use the node's network namespace."],
      terminationGracePeriodSeconds: ['integer', 'Seconds the pod has to stop gracefully.'],
      volumes: ['[]object', 'Volumes the containers may mount.'],
      readinessGates: ['[]object', 'Extra conditions that must be True for the pod to be ready.'],
    },
  },
  [`${CORE}.Container`]: {
    description: 'A single application container of a pod.',
    required: ['name'],
    fields: {
      name: ['string', 'The container name, unique within the pod.'],
      image: ['string', 'The container image.'],
      imagePullPolicy: ['string', 'Always, Never or IfNotPresent.'],
      command: ['[]string', "The entrypoint; the image's ENTRYPOINT when empty."],
      args: ['[]string', "Arguments to the entrypoint; the image's CMD when empty."],
      workingDir: ['string', 'The working directory.'],
      env: ['[]EnvVar', 'Environment variables.'],
      ports: ['[]ContainerPort', 'Ports the container exposes.'],
      resources: ['ResourceRequirements', 'Compute resources requested and limited (cpu, memory, nvidia.com/gpu).'],
      volumeMounts: ['[]VolumeMount', 'Volumes mounted into the container.'],
      restartPolicy: ['string', 'Always makes an init container a sidecar.'],
    },
  },
  [`${CORE}.EnvVar`]: {
    description: 'An environment variable.',
    required: ['name'],
    fields: {
      name: ['string', 'The variable name.'],
      value: ['string', 'The value.'],
      valueFrom: ['object', 'A source for the value.'],
    },
  },
  [`${CORE}.ContainerPort`]: {
    description: 'A network port of a container.',
    required: ['containerPort'],
    fields: {
      name: ['string', 'A name for the port.'],
      containerPort: ['integer', "The port on the pod's IP address."],
      protocol: ['string', 'TCP, UDP or SCTP.'],
    },
  },
  [`${CORE}.ResourceRequirements`]: {
    description: 'Compute resource requests and limits.',
    fields: {
      limits: ['map[string]quantity', 'The most of each resource the container may use.'],
      requests: ['map[string]quantity', 'The amount of each resource the scheduler reserves.'],
    },
  },
  [`${CORE}.VolumeMount`]: {
    description: 'A volume mounted into a container.',
    required: ['name', 'mountPath'],
    fields: {
      name: ['string', 'The volume name.'],
      mountPath: ['string', 'Where the volume appears in the container.'],
      readOnly: ['boolean', 'Mount read-only.'],
    },
  },
  [`${CORE}.Toleration`]: {
    description: 'Lets a pod be placed on a node with a matching taint.',
    fields: {
      key: ['string', 'The taint key.'],
      operator: ['string', 'Exists or Equal.'],
      value: ['string', 'The taint value.'],
      effect: ['string', 'NoSchedule, PreferNoSchedule or NoExecute.'],
      tolerationSeconds: ['integer', 'How long a NoExecute taint is tolerated.'],
    },
  },
  [`${CORE}.PodStatus`]: {
    description: 'The observed state of a pod.',
    fields: {
      phase: ['string', 'Pending, Running, Succeeded, Failed or Unknown.'],
      conditions: ['[]PodCondition', 'PodScheduled, Initialized, ContainersReady, Ready and others.'],
      message: ['string', 'Why the pod is in this state.'],
      reason: ['string', 'A CamelCase reason, e.g. Evicted.'],
      hostIP: ['string', 'The IP of the node the pod runs on.'],
      podIP: ['string', 'The IP of the pod.'],
      podIPs: ['[]object', 'The IPs of the pod.'],
      nominatedNodeName: ['string', 'The node preemption made room on.'],
      startTime: ['time', 'When the kubelet accepted the pod.'],
      qosClass: ['string', 'Guaranteed, Burstable or BestEffort.'],
      initContainerStatuses: ['[]ContainerStatus', 'One per init container.'],
      containerStatuses: ['[]ContainerStatus', 'One per container.'],
    },
  },
  [`${CORE}.PodCondition`]: {
    description: 'A condition of a pod.',
    fields: { ...conditionFields, lastProbeTime: ['time', 'When the condition was last probed.'] },
  },
  [`${CORE}.ContainerStatus`]: {
    description: 'The state of one container.',
    fields: {
      name: ['string', 'The container name.'],
      ready: ['boolean', 'Whether the container passes its readiness probe.'],
      started: ['boolean', 'Whether the container passed its startup probe.'],
      restartCount: ['integer', 'How many times the container restarted.'],
      image: ['string', 'The image the container runs.'],
      imageID: ['string', 'The image digest.'],
      containerID: ['string', 'The runtime id, <type>://<id>.'],
      state: ['ContainerState', 'The current state.'],
      lastState: ['ContainerState', 'The state of the previous run.'],
    },
  },
  [`${CORE}.ContainerState`]: {
    description: 'Exactly one of waiting, running or terminated.',
    fields: {
      waiting: ['ContainerStateWaiting', 'The container is not running yet.'],
      running: ['ContainerStateRunning', 'The container is running.'],
      terminated: ['ContainerStateTerminated', 'The container has exited.'],
    },
  },
  [`${CORE}.ContainerStateWaiting`]: {
    description: 'A waiting container.',
    fields: { reason: ['string', 'Why it waits, e.g. CrashLoopBackOff.'], message: ['string', 'Details.'] },
  },
  [`${CORE}.ContainerStateRunning`]: {
    description: 'A running container.',
    fields: { startedAt: ['time', 'When it last started.'] },
  },
  [`${CORE}.ContainerStateTerminated`]: {
    description: 'An exited container.',
    required: ['exitCode'],
    fields: {
      exitCode: ['integer', 'The exit status.'],
      signal: ['integer', 'The signal that ended it.'],
      reason: ['string', 'e.g. Completed, Error, OOMKilled.'],
      message: ['string', 'Details.'],
      startedAt: ['time', 'When it started.'],
      finishedAt: ['time', 'When it exited.'],
    },
  },
  [`${CORE}.PodTemplateSpec`]: {
    description: 'The pods a controller creates.',
    fields: {
      metadata: ['ObjectMeta', 'Labels and annotations of the pods.'],
      spec: ['PodSpec', 'The spec of the pods.'],
    },
  },
  [`${CORE}.Node`]: {
    description: 'A worker machine of the cluster.',
    gvk: { group: '', version: 'v1', kind: 'Node' },
    fields: kindFields('Node', 'NodeSpec', 'NodeStatus'),
  },
  [`${CORE}.NodeSpec`]: {
    description: 'How a node is configured.',
    fields: {
      unschedulable: ['boolean', 'Cordoned: no new pods are placed here.'],
      taints: ['[]Taint', 'Taints that repel pods without a matching toleration.'],
      podCIDR: ['string', 'The pod IP range of the node.'],
      providerID: ['string', "The cloud provider's id of the machine."],
    },
  },
  [`${CORE}.Taint`]: {
    description: 'Repels pods that do not tolerate it.',
    required: ['key', 'effect'],
    fields: {
      key: ['string', 'The taint key.'],
      value: ['string', 'The taint value.'],
      effect: ['string', 'NoSchedule, PreferNoSchedule or NoExecute.'],
      timeAdded: ['time', 'When a NoExecute taint was added.'],
    },
  },
  [`${CORE}.NodeStatus`]: {
    description: 'The observed state of a node.',
    fields: {
      capacity: ['map[string]quantity', 'Total resources of the node (cpu, memory, nvidia.com/gpu, pods).'],
      allocatable: ['map[string]quantity', 'Resources available to pods.'],
      conditions: ['[]NodeCondition', 'Ready, MemoryPressure, DiskPressure, PIDPressure.'],
      addresses: ['[]NodeAddress', 'InternalIP, ExternalIP, Hostname.'],
      nodeInfo: ['NodeSystemInfo', 'Versions reported by the kubelet.'],
    },
  },
  [`${CORE}.NodeCondition`]: {
    description: 'A condition of a node.',
    fields: { ...conditionFields, lastHeartbeatTime: ['time', 'When the kubelet last reported it.'] },
  },
  [`${CORE}.NodeAddress`]: {
    description: 'An address of a node.',
    required: ['type', 'address'],
    fields: { type: ['string', 'InternalIP, ExternalIP or Hostname.'], address: ['string', 'The address.'] },
  },
  [`${CORE}.NodeSystemInfo`]: {
    description: 'Facts the kubelet reports about its machine.',
    fields: {
      machineID: ['string', 'The machine id.'],
      kubeletVersion: ['string', 'The kubelet version.'],
      osImage: ['string', 'From /etc/os-release.'],
      kernelVersion: ['string', "From 'uname -r'."],
      containerRuntimeVersion: ['string', 'e.g. containerd://1.7.20.'],
      architecture: ['string', 'e.g. amd64.'],
      operatingSystem: ['string', 'e.g. linux.'],
    },
  },
  [`${CORE}.Event`]: {
    description: 'A report of something that happened to an object.',
    gvk: { group: '', version: 'v1', kind: 'Event' },
    required: ['metadata', 'involvedObject'],
    fields: {
      ...kindFields('Event'),
      involvedObject: ['ObjectReference', 'The object the event is about.'],
      reason: ['string', 'A short CamelCase reason.'],
      message: ['string', 'A human-readable description.'],
      type: ['string', 'Normal or Warning.'],
      source: ['EventSource', 'The component that reported it.'],
      firstTimestamp: ['time', 'When it was first seen.'],
      lastTimestamp: ['time', 'When it was last seen.'],
      count: ['integer', 'How many times it happened.'],
      eventTime: ['time', 'When it first happened, in microseconds.'],
      reportingComponent: ['string', 'The controller that emitted it.'],
      reportingInstance: ['string', 'The instance of that controller.'],
      action: ['string', 'What was done or failed.'],
    },
  },
  [`${CORE}.ObjectReference`]: {
    description: 'A reference to an object.',
    fields: {
      kind: ['string', 'Its kind.'],
      namespace: ['string', 'Its namespace.'],
      name: ['string', 'Its name.'],
      uid: ['string', 'Its uid.'],
      apiVersion: ['string', 'Its API version.'],
      resourceVersion: ['string', 'Its resourceVersion.'],
      fieldPath: ['string', 'A part of it, e.g. spec.containers{main}.'],
    },
  },
  [`${CORE}.EventSource`]: {
    description: 'Who reported an event.',
    fields: { component: ['string', 'The component.'], host: ['string', 'The node.'] },
  },
  [`${CORE}.Namespace`]: {
    description: 'A scope for names.',
    gvk: { group: '', version: 'v1', kind: 'Namespace' },
    fields: kindFields('Namespace', 'NamespaceSpec', 'NamespaceStatus'),
  },
  [`${CORE}.NamespaceSpec`]: {
    description: 'The desired state of a namespace.',
    fields: { finalizers: ['[]string', 'Must be empty before the namespace is removed.'] },
  },
  [`${CORE}.NamespaceStatus`]: {
    description: 'The observed state of a namespace.',
    fields: { phase: ['string', 'Active or Terminating.'] },
  },
  [`${CORE}.Service`]: {
    description: 'A stable address for a set of pods (the demo serves its proxy only).',
    gvk: { group: '', version: 'v1', kind: 'Service' },
    fields: kindFields('Service', 'ServiceSpec', 'ServiceStatus'),
  },
  [`${CORE}.ServiceSpec`]: {
    description: 'The desired state of a service.',
    fields: {
      type: ['string', 'ClusterIP, NodePort, LoadBalancer or ExternalName.'],
      clusterIP: ['string', 'The virtual IP.'],
      clusterIPs: ['[]string', 'The virtual IPs, one per IP family.'],
      selector: ['map[string]string', 'The pods it sends traffic to.'],
      ports: ['[]ServicePort', 'The ports it exposes.'],
      sessionAffinity: ['string', 'ClientIP or None.'],
    },
  },
  [`${CORE}.ServicePort`]: {
    description: 'One port of a service.',
    fields: {
      name: ['string', 'The port name (a DNS label), unique in the service.'],
      port: ['integer', 'The port the service exposes.'],
      protocol: ['string', 'TCP, UDP or SCTP.'],
      targetPort: ['int-or-string', "The pods' port, by number or name."],
    },
  },
  [`${CORE}.ServiceStatus`]: {
    description: 'The observed state of a service.',
    fields: { loadBalancer: ['object', 'The load balancer, if any.'] },
  },
  'io.k8s.api.batch.v1.Job': {
    description: 'Runs pods until a number of them complete.',
    gvk: { group: 'batch', version: 'v1', kind: 'Job' },
    fields: kindFields('Job', 'JobSpec', 'JobStatus'),
  },
  'io.k8s.api.batch.v1.JobSpec': {
    description: 'The desired state of a job.',
    required: ['template'],
    fields: {
      parallelism: ['integer', 'How many pods run at once.'],
      completions: ['integer', 'How many pods must succeed.'],
      completionMode: ['string', 'NonIndexed or Indexed.'],
      backoffLimit: ['integer', 'Retries before the job fails.'],
      activeDeadlineSeconds: ['integer', 'Time limit of the job.'],
      ttlSecondsAfterFinished: ['integer', 'Delete the job this long after it finished.'],
      suspend: ['boolean', 'No pods are created while true.'],
      selector: ['LabelSelector', 'The pods of the job.'],
      manualSelector: ['boolean', 'Keep a hand-written selector.'],
      template: ['PodTemplateSpec', 'The pods the job runs.'],
      podFailurePolicy: ['object', 'How pod failures count.'],
    },
  },
  'io.k8s.api.batch.v1.JobStatus': {
    description: 'The observed state of a job.',
    fields: {
      conditions: ['[]JobCondition', 'Complete, Failed, Suspended and others.'],
      startTime: ['time', 'When the job started.'],
      completionTime: ['time', 'When the job completed.'],
      active: ['integer', 'Pods running or pending.'],
      succeeded: ['integer', 'Pods that succeeded.'],
      failed: ['integer', 'Pods that failed.'],
      ready: ['integer', 'Pods that are ready.'],
      completedIndexes: ['string', 'Completed indexes, e.g. "1,3-5".'],
      failedIndexes: ['string', 'Failed indexes.'],
      uncountedTerminatedPods: ['object', 'Finished pods not yet counted.'],
    },
  },
  'io.k8s.api.batch.v1.JobCondition': {
    description: 'A condition of a job.',
    fields: { ...conditionFields, lastProbeTime: ['time', 'When the condition was last checked.'] },
  },
  'io.k8s.api.apps.v1.StatefulSet': {
    description: 'Pods with stable identities and storage.',
    gvk: { group: 'apps', version: 'v1', kind: 'StatefulSet' },
    fields: kindFields('StatefulSet', 'StatefulSetSpec', 'StatefulSetStatus'),
  },
  'io.k8s.api.apps.v1.StatefulSetSpec': {
    description: 'The desired state of a stateful set.',
    required: ['selector', 'template'],
    fields: {
      replicas: ['integer', 'The number of pods.'],
      selector: ['LabelSelector', 'The pods of the set.'],
      template: ['PodTemplateSpec', 'The pods the set creates.'],
      serviceName: ['string', 'The headless service that names the pods.'],
      podManagementPolicy: ['string', 'OrderedReady or Parallel.'],
      updateStrategy: ['object', 'How pods are replaced on a template change.'],
    },
  },
  'io.k8s.api.apps.v1.StatefulSetStatus': {
    description: 'The observed state of a stateful set.',
    fields: {
      observedGeneration: ['integer', 'The generation last acted on.'],
      replicas: ['integer', 'Pods created.'],
      readyReplicas: ['integer', 'Pods ready.'],
      currentReplicas: ['integer', 'Pods at the current revision.'],
      updatedReplicas: ['integer', 'Pods at the update revision.'],
      availableReplicas: ['integer', 'Pods available.'],
      currentRevision: ['string', 'The current revision.'],
      updateRevision: ['string', 'The update revision.'],
    },
  },
  'io.k8s.api.authorization.v1.SelfSubjectAccessReview': {
    description: 'Asks whether the current user may perform an action.',
    gvk: { group: 'authorization.k8s.io', version: 'v1', kind: 'SelfSubjectAccessReview' },
    required: ['spec'],
    fields: kindFields('SelfSubjectAccessReview', 'SelfSubjectAccessReviewSpec', 'SubjectAccessReviewStatus'),
  },
  'io.k8s.api.authorization.v1.SelfSubjectAccessReviewSpec': {
    description: 'Exactly one of resourceAttributes and nonResourceAttributes.',
    fields: {
      resourceAttributes: ['ResourceAttributes', 'An API request.'],
      nonResourceAttributes: ['NonResourceAttributes', 'A request to a non-resource path.'],
    },
  },
  'io.k8s.api.authorization.v1.ResourceAttributes': {
    description: 'An API request, as the authorizer sees it.',
    fields: {
      namespace: ['string', 'The namespace; empty for the cluster scope or all namespaces.'],
      verb: ['string', 'get, list, watch, create, update, patch, delete or "*".'],
      group: ['string', 'The API group; "" for core.'],
      version: ['string', 'The API version.'],
      resource: ['string', 'The resource, e.g. pods.'],
      subresource: ['string', 'The subresource, e.g. log.'],
      name: ['string', 'The object name; empty for all.'],
    },
  },
  'io.k8s.api.authorization.v1.NonResourceAttributes': {
    description: 'A request to a path that is not an API resource.',
    fields: { path: ['string', 'The URL path.'], verb: ['string', 'The HTTP verb, lower case.'] },
  },
  'io.k8s.api.authorization.v1.SubjectAccessReviewStatus': {
    description: 'The answer of an access review.',
    required: ['allowed'],
    fields: {
      allowed: ['boolean', 'Whether the action is allowed.'],
      denied: ['boolean', 'Whether the action is explicitly denied.'],
      reason: ['string', 'Why.'],
      evaluationError: ['string', 'An error while evaluating.'],
    },
  },
  'io.k8s.api.authorization.v1.SelfSubjectRulesReview': {
    description: 'Lists what the current user may do in a namespace.',
    gvk: { group: 'authorization.k8s.io', version: 'v1', kind: 'SelfSubjectRulesReview' },
    required: ['spec'],
    fields: kindFields('SelfSubjectRulesReview', 'SelfSubjectRulesReviewSpec', 'SubjectRulesReviewStatus'),
  },
  'io.k8s.api.authorization.v1.SelfSubjectRulesReviewSpec': {
    description: 'The namespace to list the rules of.',
    fields: { namespace: ['string', 'The namespace.'] },
  },
  'io.k8s.api.authorization.v1.SubjectRulesReviewStatus': {
    description: 'The rules of a user in a namespace.',
    required: ['resourceRules', 'nonResourceRules', 'incomplete'],
    fields: {
      resourceRules: ['[]ResourceRule', 'Allowed actions on resources.'],
      nonResourceRules: ['[]NonResourceRule', 'Allowed actions on other paths.'],
      incomplete: ['boolean', 'True when the authorizer could not list every rule.'],
      evaluationError: ['string', 'An error while listing.'],
    },
  },
  'io.k8s.api.authorization.v1.ResourceRule': {
    description: 'Verbs allowed on resources.',
    required: ['verbs'],
    fields: {
      verbs: ['[]string', 'The verbs.'],
      apiGroups: ['[]string', 'The API groups.'],
      resources: ['[]string', 'The resources.'],
      resourceNames: ['[]string', 'The object names; all when empty.'],
    },
  },
  'io.k8s.api.authorization.v1.NonResourceRule': {
    description: 'Verbs allowed on paths.',
    required: ['verbs'],
    fields: {
      verbs: ['[]string', 'The verbs.'],
      nonResourceURLs: ['[]string', 'The paths; "*" at the end matches a prefix.'],
    },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition': {
    description: 'Adds a custom resource kind to the API.',
    gvk: { group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition' },
    required: ['spec'],
    fields: kindFields('CustomResourceDefinition', 'CustomResourceDefinitionSpec', 'object'),
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec': {
    description: 'The kind a CRD adds.',
    required: ['group', 'names', 'scope', 'versions'],
    fields: {
      group: ['string', 'The API group.'],
      names: ['CustomResourceDefinitionNames', 'Plural, singular, kind and short names.'],
      scope: ['string', 'Namespaced or Cluster.'],
      versions: ['[]CustomResourceDefinitionVersion', 'The versions served.'],
      conversion: ['object', 'How versions are converted.'],
    },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionNames': {
    description: 'The names of a custom kind.',
    required: ['plural', 'kind'],
    fields: {
      plural: ['string', 'The resource name in URLs.'],
      singular: ['string', 'The singular name.'],
      kind: ['string', 'The kind.'],
      listKind: ['string', 'The kind of lists.'],
      shortNames: ['[]string', 'Short names for kubectl.'],
      categories: ['[]string', 'Groups such as "all".'],
    },
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionVersion': {
    description: 'One version of a custom kind.',
    required: ['name', 'served', 'storage'],
    fields: {
      name: ['string', 'The version, e.g. v1alpha2.'],
      served: ['boolean', 'Whether the version is served.'],
      storage: ['boolean', 'Whether objects are stored in this version.'],
      schema: ['object', 'The openAPIV3Schema objects must match.'],
      subresources: ['object', 'The status and scale subresources.'],
      additionalPrinterColumns: ['[]object', 'Columns kubectl get prints.'],
    },
  },
  ...draDefinitions(),
};

const BUILTIN_BY_SHORT_NAME = new Map<string, string>(
  Object.keys(BUILTIN_DEFINITIONS).map((full) => [full.slice(full.lastIndexOf('.') + 1), full]),
);

/** The full OpenAPI name of a built-in definition from its short name (`PodSpec`). */
export function definitionName(short: string): string | undefined {
  return BUILTIN_BY_SHORT_NAME.get(short);
}

const PRIMITIVES: Record<string, JsonSchema> = {
  string: { type: 'string' },
  integer: { type: 'integer', format: 'int32' },
  number: { type: 'number', format: 'double' },
  boolean: { type: 'boolean' },
  time: { type: 'string', format: 'date-time' },
  quantity: { 'x-kubernetes-int-or-string': true },
  'int-or-string': { 'x-kubernetes-int-or-string': true },
  object: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
};

/** Resolves a definition's short name (`PodSpec`) to a schema: a reference or an inlined object. */
export type Resolve = (short: string) => JsonSchema | undefined;

/** The schema of a shorthand type; named types through `resolve`. */
export function fieldSchema(type: string, description: string, resolve: Resolve): JsonSchema {
  const withDescription = (s: JsonSchema): JsonSchema => (description ? { ...s, description } : s);
  if (type.startsWith('[]')) return withDescription({ type: 'array', items: fieldSchema(type.slice(2), '', resolve) });
  if (type.startsWith('map[string]'))
    return withDescription({ type: 'object', additionalProperties: fieldSchema(type.slice(11), '', resolve) });
  const primitive = PRIMITIVES[type];
  if (primitive) return withDescription(primitive);
  const target = resolve(type);
  if (!target) throw new Error(`schemas: unknown type "${type}"`);
  // A reference with a description of its own is wrapped in allOf, as kube-apiserver publishes it.
  if (target.$ref) return description ? { description, allOf: [target] } : target;
  return withDescription(target);
}

/** A definition as an object schema. */
export function definitionSchema(def: Omit<Definition, 'gvk'>, resolve: Resolve): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [name, [type, description]] of Object.entries(def.fields))
    properties[name] = fieldSchema(type, description, resolve);
  const s: JsonSchema = { description: def.description, type: 'object', properties };
  if (def.required?.length) s.required = def.required;
  return s;
}

/** Built-in definitions fully inlined (every named type expanded), for embedding in a CRD schema. */
export function inlineBuiltin(short: string): JsonSchema | undefined {
  const full = definitionName(short);
  return full ? definitionSchema(BUILTIN_DEFINITIONS[full], inlineBuiltin) : undefined;
}

/** What a CRD declares about its own types: spec and status fields, and nested types by short name. */
export interface CrdSchemaFacts {
  spec: Record<string, Field>;
  status: Record<string, Field>;
  types?: Record<string, Omit<Definition, 'gvk'>>;
}

/**
 * A CRD's structural openAPIV3Schema, everything inlined. spec and status keep
 * unknown fields: the simulated server stores what it is given without pruning,
 * so the schema promises no more than the server enforces.
 */
export function crdOpenApiSchema(kind: string, facts: CrdSchemaFacts): JsonSchema {
  const resolve: Resolve = (short) => {
    const own = facts.types?.[short];
    return own ? definitionSchema(own, resolve) : inlineBuiltin(short);
  };
  const section = (description: string, fields: Record<string, Field>): JsonSchema => ({
    ...definitionSchema({ description, fields }, resolve),
    'x-kubernetes-preserve-unknown-fields': true,
  });
  return {
    description: `${kind} is served by the simulated cluster.`,
    type: 'object',
    properties: {
      apiVersion: { type: 'string', description: 'The versioned schema of this object.' },
      kind: { type: 'string', description: `The REST type of this object, "${kind}".` },
      metadata: { type: 'object' },
      spec: section(`The desired state of the ${kind}.`, facts.spec),
      status: section(`The observed state of the ${kind}.`, facts.status),
    },
  };
}
