// LeaderWorkerSet controller (leaderworkerset.x-k8s.io/v1, as v0.8 behaves):
// the leader StatefulSet <lws> (one leader pod per group, <lws>-<g>), and for
// each leader pod a worker StatefulSet <lws>-<g> owned by that pod, with
// ordinals from 1 (worker pods <lws>-<g>-<w>). The LWS pod webhook's labels
// (group-index, worker-index, group-key, template-revision-hash) and
// annotations (size, leader-name) are added at pod admission. Status:
// replicas/readyReplicas/updatedReplicas and Available/Progressing.
import { createHash } from 'node:crypto';
import type { StoreEvent, StoredObject } from '../../object-store.js';
import { hash32 } from '../clock.js';
import type { Controller, Runtime } from '../runtime.js';
import { isPodReady, ownerRefTo, R, type Condition, type Pod, type PodTemplate } from '../types.js';
import { type StatefulSetController, type StatefulSetObject } from './statefulset.js';

export interface LeaderWorkerSetObject extends StoredObject {
  spec: {
    replicas?: number;
    leaderWorkerTemplate: {
      size?: number;
      leaderTemplate?: PodTemplate;
      workerTemplate: PodTemplate;
      restartPolicy?: string;
    };
    startupPolicy?: string;
    rolloutStrategy?: unknown;
    [k: string]: unknown;
  };
  status?: { conditions?: Condition[]; [k: string]: unknown };
}

const P = 'leaderworkerset.sigs.k8s.io/';

export class LeaderWorkerSetController implements Controller {
  readonly resource = R.leaderworkersets;

  constructor(
    private readonly rt: Runtime,
    sts: StatefulSetController,
  ) {
    sts.addPodMutator((pod, set, ordinal) => this.admitPod(pod, set, ordinal));
    // Worker StatefulSets are owned by leader pods, so their changes do not
    // reach the LWS through ownerReferences; the LWS label routes them.
    rt.hook((e: StoreEvent) => {
      const lws = e.object.metadata.labels?.[`${P}name`];
      if (lws && (e.resourceKey === R.statefulsets || e.resourceKey === R.pods))
        rt.enqueue(R.leaderworkersets, e.object.metadata.namespace, lws);
    });
  }

  static templateHash(lws: LeaderWorkerSetObject): string {
    return hash32(JSON.stringify(lws.spec.leaderWorkerTemplate)).toString(16).padStart(8, '0');
  }

  static groupKey(namespace: string, lwsName: string, group: number): string {
    return createHash('sha1').update(`${namespace}/${lwsName}-${group}`).digest('hex');
  }

  /** The LWS pod webhook: labels for leader (worker-index 0) and worker pods. */
  private admitPod(pod: Pod, sts: StatefulSetObject, ordinal: number): void {
    const labels = pod.metadata.labels ?? {};
    const name = labels[`${P}name`];
    if (!name) return;
    const ns = pod.metadata.namespace!;
    if (labels[`${P}worker-index`] === undefined && sts.metadata.labels?.[`${P}group-index`] === undefined) {
      // Leader: its ordinal in the leader StatefulSet is the group index.
      labels[`${P}worker-index`] = '0';
      labels[`${P}group-index`] = String(ordinal);
      labels[`${P}group-key`] = LeaderWorkerSetController.groupKey(ns, name, ordinal);
    } else {
      labels[`${P}worker-index`] = String(ordinal);
    }
    pod.metadata.labels = labels;
  }

  reconcile(namespace: string | undefined, name: string): void {
    const rt = this.rt;
    const lws = rt.store.get(R.leaderworkersets, namespace, name) as LeaderWorkerSetObject | undefined;
    if (!lws || lws.metadata.deletionTimestamp) return;
    const size = lws.spec.leaderWorkerTemplate.size ?? 1;
    const replicas = lws.spec.replicas ?? 1;
    const hash = LeaderWorkerSetController.templateHash(lws);
    let leaderSts = rt
      .children<StatefulSetObject>(lws.metadata.uid, R.statefulsets)
      .find((s) => s.metadata.name === lws.metadata.name);
    if (!leaderSts) leaderSts = this.createLeaderSts(lws, replicas, size, hash);

    const leaders = rt.children<Pod>(leaderSts.metadata.uid, R.pods).filter((p) => !p.metadata.deletionTimestamp);
    let readyGroups = 0;
    for (const leader of leaders) {
      const group = Number(leader.metadata.labels?.[`${P}group-index`] ?? 0);
      let workers: StatefulSetObject | undefined;
      if (size > 1) {
        workers = rt.children<StatefulSetObject>(leader.metadata.uid, R.statefulsets)[0];
        if (!workers) workers = this.createWorkerSts(lws, leader, group, size, hash);
      }
      const workerReady = Number((workers?.status?.['readyReplicas'] as number | undefined) ?? 0);
      if (isPodReady(leader) && (size === 1 || workerReady >= size - 1)) readyGroups++;
    }

    const current = rt.store.get(R.leaderworkersets, namespace, name) as LeaderWorkerSetObject;
    const available = readyGroups >= replicas && leaders.length >= replicas;
    let conditions = current.status?.conditions ?? [];
    // Available and Progressing are exclusive: setting one True sets the other False.
    if (available) {
      conditions = rt.setCondition(conditions, {
        type: 'Available',
        status: 'True',
        reason: 'AllGroupsReady',
        message: 'All replicas are ready',
      });
      conditions = rt.setCondition(conditions, {
        type: 'Progressing',
        status: 'False',
        reason: 'AllGroupsReady',
        message: 'All replicas are ready',
      });
    } else {
      conditions = rt.setCondition(conditions, {
        type: 'Progressing',
        status: 'True',
        reason: 'GroupsProgressing',
        message: 'Replicas are progressing',
      });
      conditions = rt.setCondition(conditions, {
        type: 'Available',
        status: 'False',
        reason: 'GroupsProgressing',
        message: 'Replicas are progressing',
      });
    }
    rt.putStatus(R.leaderworkersets, current, {
      conditions,
      replicas: leaders.length,
      readyReplicas: readyGroups,
      updatedReplicas: leaders.length,
      hpaPodSelector: `${P}name=${lws.metadata.name},${P}worker-index=0`,
    });
  }

  private createLeaderSts(lws: LeaderWorkerSetObject, replicas: number, size: number, hash: string): StatefulSetObject {
    const tmpl = lws.spec.leaderWorkerTemplate.leaderTemplate ?? lws.spec.leaderWorkerTemplate.workerTemplate;
    const labels = { [`${P}name`]: lws.metadata.name, [`${P}template-revision-hash`]: hash };
    const sts: StatefulSetObject = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: {
        name: lws.metadata.name,
        namespace: lws.metadata.namespace,
        uid: '',
        resourceVersion: '',
        creationTimestamp: '',
        generation: 1,
        labels,
        annotations: { [`${P}replicas`]: String(replicas) },
        ownerReferences: [ownerRefTo(lws)],
      },
      spec: {
        replicas,
        serviceName: lws.metadata.name,
        podManagementPolicy: 'Parallel',
        selector: { matchLabels: { [`${P}name`]: lws.metadata.name, [`${P}worker-index`]: '0' } },
        template: {
          metadata: {
            labels: { ...(tmpl.metadata?.labels ?? {}), ...labels },
            annotations: { ...(tmpl.metadata?.annotations ?? {}), [`${P}size`]: String(size) },
          },
          spec: tmpl.spec,
        },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } },
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
        revisionHistoryLimit: 10,
      },
      status: {},
    };
    return this.rt.create(R.statefulsets, sts);
  }

  private createWorkerSts(
    lws: LeaderWorkerSetObject,
    leader: Pod,
    group: number,
    size: number,
    hash: string,
  ): StatefulSetObject {
    const tmpl = lws.spec.leaderWorkerTemplate.workerTemplate;
    const ns = lws.metadata.namespace!;
    const labels = {
      [`${P}name`]: lws.metadata.name,
      [`${P}group-index`]: String(group),
      [`${P}group-key`]: LeaderWorkerSetController.groupKey(ns, lws.metadata.name, group),
      [`${P}template-revision-hash`]: hash,
    };
    const sts: StatefulSetObject = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: {
        name: `${lws.metadata.name}-${group}`,
        namespace: ns,
        uid: '',
        resourceVersion: '',
        creationTimestamp: '',
        generation: 1,
        labels,
        ownerReferences: [ownerRefTo(leader)],
      },
      spec: {
        replicas: size - 1,
        ordinals: { start: 1 },
        serviceName: lws.metadata.name,
        podManagementPolicy: 'Parallel',
        selector: { matchLabels: { [`${P}name`]: lws.metadata.name, [`${P}group-key`]: labels[`${P}group-key`] } },
        template: {
          metadata: {
            labels: { ...(tmpl.metadata?.labels ?? {}), ...labels },
            annotations: {
              ...(tmpl.metadata?.annotations ?? {}),
              [`${P}size`]: String(size),
              [`${P}leader-name`]: leader.metadata.name,
            },
          },
          spec: tmpl.spec,
        },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } },
        revisionHistoryLimit: 10,
      },
      status: {},
    };
    return this.rt.create(R.statefulsets, sts);
  }
}
