// The shapes of the kinds the simulated API server serves (kinds.ts lists
// them; kinds-queueing.ts and kinds-dra.ts add theirs).
import type { StoredObject } from './object-store.js';
import type { CrdSchemaFacts } from './schemas.js';

/** A CRD additionalPrinterColumn (apiextensions.k8s.io/v1). */
export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  priority?: number;
}

export interface CrdFacts {
  printerColumns: PrinterColumn[];
  schema: CrdSchemaFacts;
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
}

export interface ServedKind {
  group: string; // '' for core
  version: string;
  plural: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  verbs: string[];
  /** Subresources beyond the object itself, e.g. `status`, `log`. */
  subresources: Array<{ name: string; kind: string; group?: string; version?: string; verbs: string[] }>;
  /** Field selector keys besides metadata.name / metadata.namespace. */
  fieldSelectors: string[];
  /** Set on custom kinds: what their CustomResourceDefinition declares. */
  crd?: CrdFacts;
  /**
   * Set on a kind served from the objects of another (the storage) version of
   * the same CRD: that version, and the object as it reads in this one (what a
   * conversion webhook answers).
   */
  servedFrom?: { version: string; convert(obj: StoredObject): StoredObject };
}

/** A kind as listed: what `kind()` does not default. */
export type KindSpec = Omit<
  ServedKind,
  'listKind' | 'verbs' | 'subresources' | 'fieldSelectors' | 'categories' | 'shortNames'
> &
  Partial<ServedKind>;
