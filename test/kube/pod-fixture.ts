// A realistic GPU training pod as the API server returns it (managedFields,
// env, volumes, probes, last-applied annotation...), ~6 KB of JSON.
export function realisticPod(i: number, namespace = 'training'): Record<string, unknown> {
  const name = `llama-pretrain-worker-${i}-${(i * 7919).toString(36).padStart(5, 'x')}`;
  const container = (cname: string) => ({
    name: cname,
    image: 'nvcr.io/nvidia/pytorch:24.05-py3',
    command: ['torchrun', '--nnodes=8', '--nproc-per-node=8', 'train.py'],
    args: ['--config', '/etc/train/config.yaml', '--checkpoint-dir', '/ckpt'],
    env: Array.from({ length: 12 }, (_, k) => ({
      name: `ENV_VAR_NUMBER_${k}`,
      value: `some-value-${k}-${'x'.repeat(20)}`,
    })),
    resources: { requests: { cpu: '32', memory: '512Gi', 'nvidia.com/gpu': '8' }, limits: { 'nvidia.com/gpu': '8' } },
    volumeMounts: [
      { name: 'shm', mountPath: '/dev/shm' },
      { name: 'ckpt', mountPath: '/ckpt' },
      { name: 'kube-api-access-abcde', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true },
    ],
    livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, initialDelaySeconds: 30, periodSeconds: 10 },
    readinessProbe: { httpGet: { path: '/ready', port: 8080 }, periodSeconds: 5 },
    securityContext: { capabilities: { add: ['IPC_LOCK'] }, runAsUser: 1000 },
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    imagePullPolicy: 'IfNotPresent',
  });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      uid: `0000${i.toString(16).padStart(8, '0')}-aaaa-4bbb-8ccc-${i.toString(16).padStart(12, '0')}`,
      resourceVersion: String(100000 + i),
      creationTimestamp: '2026-12-01T10:00:00Z',
      labels: {
        'jobset.sigs.k8s.io/jobset-name': 'llama-pretrain',
        'jobset.sigs.k8s.io/replicatedjob-name': 'worker',
        'jobset.sigs.k8s.io/job-index': String(i),
        'batch.kubernetes.io/job-name': `llama-pretrain-worker-${i}`,
        'batch.kubernetes.io/controller-uid': `c-${i}`,
        'batch.kubernetes.io/job-completion-index': '0',
      },
      annotations: {
        'jobset.sigs.k8s.io/jobset-name': 'llama-pretrain',
        'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ big: 'y'.repeat(1500) }),
        'example.com/config-blob': 'z'.repeat(3000),
      },
      ownerReferences: [
        {
          apiVersion: 'batch/v1',
          kind: 'Job',
          name: `llama-pretrain-worker-${i}`,
          uid: `c-${i}`,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      finalizers: ['batch.kubernetes.io/job-tracking'],
      managedFields: Array.from({ length: 3 }, (_, k) => ({
        manager: `manager-${k}`,
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-12-01T10:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:labels': { '.': {}, 'f:a': {}, 'f:b': {} } },
          'f:spec': { 'f:containers': { 'k:{"name":"main"}': { '.': {} } } },
        },
      })),
    },
    spec: {
      nodeName: `gpu-node-${String(i % 100).padStart(3, '0')}`,
      schedulerName: 'default-scheduler',
      priorityClassName: 'training-high',
      restartPolicy: 'Never',
      serviceAccountName: 'default',
      tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
      containers: [container('main')],
      initContainers: [{ ...container('init'), resources: { requests: { cpu: '1' } } }],
      volumes: [
        { name: 'shm', emptyDir: { medium: 'Memory', sizeLimit: '64Gi' } },
        { name: 'ckpt', persistentVolumeClaim: { claimName: 'ckpt' } },
        {
          name: 'kube-api-access-abcde',
          projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3607 } }] },
        },
      ],
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'nvidia.com/gpu.product', operator: 'In', values: ['H100'] }] },
            ],
          },
        },
      },
      dnsPolicy: 'ClusterFirst',
      enableServiceLinks: true,
      hostname: name,
      subdomain: 'llama-pretrain',
    },
    status: {
      phase: 'Running',
      hostIP: '10.0.0.1',
      podIP: '10.1.0.1',
      podIPs: [{ ip: '10.1.0.1' }],
      startTime: '2026-12-01T10:00:05Z',
      qosClass: 'Burstable',
      conditions: ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map(
        (type) => ({
          type,
          status: 'True',
          lastProbeTime: null,
          lastTransitionTime: '2026-12-01T10:00:10Z',
        }),
      ),
      initContainerStatuses: [
        {
          name: 'init',
          ready: true,
          restartCount: 0,
          image: 'nvcr.io/nvidia/pytorch:24.05-py3',
          imageID: 'sha256:' + 'a'.repeat(64),
          containerID: 'containerd://' + 'b'.repeat(64),
          state: {
            terminated: {
              exitCode: 0,
              reason: 'Completed',
              startedAt: '2026-12-01T10:00:06Z',
              finishedAt: '2026-12-01T10:00:08Z',
              containerID: 'c',
            },
          },
          lastState: {},
        },
      ],
      containerStatuses: [
        {
          name: 'main',
          ready: true,
          started: true,
          restartCount: 2,
          image: 'nvcr.io/nvidia/pytorch:24.05-py3',
          imageID: 'sha256:' + 'a'.repeat(64),
          containerID: 'containerd://' + 'b'.repeat(64),
          state: { running: { startedAt: '2026-12-01T10:00:09Z' } },
          lastState: {
            terminated: {
              exitCode: 137,
              reason: 'OOMKilled',
              startedAt: '2026-12-01T09:00:00Z',
              finishedAt: '2026-12-01T09:59:00Z',
              message: 'm'.repeat(4000),
            },
          },
        },
      ],
    },
  };
}
