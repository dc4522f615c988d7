// apps/v1 StatefulSet controller: pods <sts>-<ordinal> from spec.ordinals.start,
// OrderedReady (the next pod only once the previous is Running and Ready) or
// Parallel; the labels the controller adds (controller-revision-hash,
// statefulset.kubernetes.io/pod-name, apps.kubernetes.io/pod-index); hostname
// and subdomain from serviceName; status counters and revisions. Admission
// mutators registered by other controllers run on each new pod (the LWS pod
// webhook adds its labels that way).
import type { StoredObject } from '../../object-store.js';
import { hash32 } from '../clock.js';
import type { Controller, Runtime } from '../runtime.js';
import { isPodReady, R, type Pod, type PodTemplate } from '../types.js';
import { countPods, createOwnedPod, type PodMutator } from './common.js';

export interface StatefulSetObject extends StoredObject {
  spec: {
    replicas?: number;
    serviceName?: string;
    podManagementPolicy?: 'OrderedReady' | 'Parallel';
    ordinals?: { start?: number };
    selector: { matchLabels: Record<string, string> };
    template: PodTemplate;
    [k: string]: unknown;
  };
  status?: Record<string, unknown>;
}

/** Template object → its hash (templates are never mutated in place). */
const revisionHashes = new WeakMap<object, string>();

export type StatefulSetPodMutator = (pod: Pod, sts: StatefulSetObject, ordinal: number) => void;

export class StatefulSetController implements Controller {
  readonly resource = R.statefulsets;
  private readonly mutators: StatefulSetPodMutator[] = [];
  constructor(private readonly rt: Runtime) {}

  addPodMutator(m: StatefulSetPodMutator): void {
    this.mutators.push(m);
  }

  static revision(sts: StatefulSetObject): string {
    let hash = revisionHashes.get(sts.spec.template);
    if (hash === undefined) {
      hash = hash32(JSON.stringify(sts.spec.template)).toString(36).slice(0, 10);
      revisionHashes.set(sts.spec.template, hash);
    }
    return `${sts.metadata.name}-${hash}`;
  }

  reconcile(namespace: string | undefined, name: string): void {
    const rt = this.rt;
    const sts = rt.store.get(R.statefulsets, namespace, name) as StatefulSetObject | undefined;
    if (!sts || sts.metadata.deletionTimestamp) return;
    const replicas = sts.spec.replicas ?? 1;
    const start = sts.spec.ordinals?.start ?? 0;
    const revision = StatefulSetController.revision(sts);
    const pods = rt.children<Pod>(sts.metadata.uid, R.pods);
    const byName = new Map(pods.map((p) => [p.metadata.name, p]));
    const parallel = sts.spec.podManagementPolicy === 'Parallel';
    for (let ord = start; ord < start + replicas; ord++) {
      const podName = `${sts.metadata.name}-${ord}`;
      const existing = byName.get(podName);
      if (existing) {
        if (!parallel && !(existing.status.phase === 'Running' && isPodReady(existing))) break;
        continue;
      }
      // A previous pod of that name still terminating blocks the ordinal.
      if (rt.store.get(R.pods, namespace, podName)) {
        if (!parallel) break;
        continue;
      }
      const mutate: PodMutator = (pod) => {
        for (const m of this.mutators) m(pod, sts, ord);
      };
      createOwnedPod(
        rt,
        sts,
        {
          namespace: sts.metadata.namespace!,
          name: podName,
          template: sts.spec.template,
          labels: {
            'controller-revision-hash': revision,
            'statefulset.kubernetes.io/pod-name': podName,
            'apps.kubernetes.io/pod-index': String(ord),
          },
          hostname: podName,
          ...(sts.spec.serviceName ? { subdomain: sts.spec.serviceName } : {}),
        },
        {
          component: 'statefulset-controller',
          reason: 'SuccessfulCreate',
          message: (p) => `create Pod ${p.metadata.name} in StatefulSet ${sts.metadata.name} successful`,
        },
        mutate,
      );
      if (!parallel) break;
    }
    const current = rt.store.get(R.statefulsets, namespace, name) as StatefulSetObject;
    const c = countPods(rt.children<Pod>(sts.metadata.uid, R.pods));
    rt.putStatus(R.statefulsets, current, {
      observedGeneration: sts.metadata.generation ?? 1,
      replicas: c.active,
      readyReplicas: c.ready,
      currentReplicas: c.active,
      updatedReplicas: c.active,
      availableReplicas: c.ready,
      currentRevision: revision,
      updateRevision: revision,
      collisionCount: 0,
    });
  }
}
