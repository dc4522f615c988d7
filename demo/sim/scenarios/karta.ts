// The cluster's own Workload Map definition for Kubeflow TFJob (wlx has no
// built-in one): a run.ai/v1alpha1 Karta, written for this demo in the current
// format. One multi-instance child component, one instance per replica type;
// instance ids are the tfReplicaSpecs keys lower-cased so they equal the
// pods' training.kubeflow.org/replica-type label ("Chief" → "chief"). Every
// per-instance path walks the keys in the same sorted order, so positions
// line up whether the evaluator keeps insertion order (jq) or sorts (gojq).
import type { StoredObject } from '../../object-store.js';

export const TFJOB_KARTA_NAME = 'kubeflow-org-tfjob-v1';

const REPLICAS = '.spec.tfReplicaSpecs | to_entries | sort_by(.key)[]';

export function tfJobKarta(createdAt: string): StoredObject {
  return {
    apiVersion: 'run.ai/v1alpha1',
    kind: 'Karta',
    metadata: {
      name: TFJOB_KARTA_NAME,
      uid: '',
      resourceVersion: '',
      creationTimestamp: createdAt,
      generation: 1,
      labels: { 'app.kubernetes.io/managed-by': 'platform-team' },
    },
    spec: {
      structureDefinition: {
        rootComponent: {
          name: 'tfjob',
          kind: { group: 'kubeflow.org', version: 'v1', kind: 'TFJob' },
          statusDefinition: {
            conditionsDefinition: {
              path: '.status.conditions',
              typeFieldName: 'type',
              statusFieldName: 'status',
              messageFieldName: 'message',
              reasonFieldName: 'reason',
            },
            statusMappings: {
              initializing: [
                {
                  byConditions: [{ type: 'Created', status: 'True' }],
                  byExpression: {
                    expression:
                      '[.status.conditions[]? | select(.type == "Running" or .type == "Succeeded" or .type == "Failed") | select(.status == "True")] | length == 0',
                    expectedResult: 'true',
                  },
                },
              ],
              running: [{ byConditions: [{ type: 'Running', status: 'True' }] }],
              completed: [{ byConditions: [{ type: 'Succeeded', status: 'True' }] }],
              failed: [{ byConditions: [{ type: 'Failed', status: 'True' }] }],
              suspended: [{ byConditions: [{ type: 'Suspended', status: 'True' }] }],
            },
          },
          suspendDefinition: {
            suspendActions: [{ path: '.spec.runPolicy.suspend', value: 'true' }],
            resumeActions: [{ path: '.spec.runPolicy.suspend', value: 'false' }],
          },
        },
        childComponents: [
          {
            name: 'replica',
            kind: { group: '', version: 'v1', kind: 'Pod' },
            ownerRef: 'tfjob',
            instanceIdPath: `${REPLICAS} | .key | ascii_downcase`,
            specDefinition: { podTemplateSpecPath: `${REPLICAS} | .value.template` },
            scaleDefinition: { replicasPath: `${REPLICAS} | .value.replicas // 1` },
            podSelector: {
              componentTypeSelector: { keyPath: '.metadata.labels["training.kubeflow.org/replica-type"]' },
              componentInstanceSelector: { idPath: '.metadata.labels["training.kubeflow.org/replica-type"]' },
            },
          },
        ],
      },
      optimizationInstructions: {
        gangScheduling: {
          podGroups: [
            {
              name: 'job',
              members: [
                { componentName: 'replica', groupByKeyPaths: ['.metadata.labels["training.kubeflow.org/job-name"]'] },
              ],
            },
          ],
        },
      },
    },
  };
}
