// A kind's list, page by page, as client-go's reflector asks for it: paged
// (`limit` + `continue`), the next page asked for while this one is parsed,
// restarted from the first page if a continue token expires, a page over its
// size bound fetched again an object per page (only an object over the bound
// itself is skipped), JSON or Kubernetes protobuf by each answer's
// Content-Type. The reflector (reflector.ts) decides what each object means
// against what it holds; this file only reads the pages.
import { isAscii, isUtf8 } from 'node:buffer';
import type { KubeObject } from '../model/types.js';
import { KubeApiError } from './client.js';
import { isRecord } from '../definitions/normalise.js';
import { withTypeMeta } from './trim.js';
import type { ObjectDecoder } from './protobuf/core-v1.js';
import { decodeList, type DecodedList, objectNameInProtobuf, peekListContinue } from './protobuf/envelope.js';
import { ProtobufError } from './protobuf/wire.js';
import {
  fetchListPage,
  megabytes,
  namesWithInvalidUtf8,
  nameOf,
  objectNameIn,
  PageTooLargeError,
  peekContinue,
  type Page,
  type RequestOptions,
} from './response-bounds.js';

/** What to list and how. */
export interface ListRequest {
  request: RequestOptions;
  /** The collection's URL with these query parameters (and the reflector's selectors). */
  query: (extra: Record<string, string>) => string;
  apiVersion: string;
  kind: string;
  /** Short name used in messages. */
  label: string;
  trim: (object: unknown) => KubeObject;
  /** The kind's protobuf decoder when protobuf is asked for. */
  protobuf: ObjectDecoder | undefined;
  pageSize: number;
  /** No byte for this long → the request is cut. */
  idleMs: number;
  maxPageBytes: number;
}

/** Where a list's objects and problems go. */
export interface ListSink {
  /** Each object, trimmed, as soon as its page is read. */
  listed(object: KubeObject): void;
  /** The continue token expired: the list starts again from the first page. */
  restarted(): void;
  problem(message: string): void;
  /** A page with bytes that are not UTF-8 (shown as U+FFFD): the objects named, up to five. */
  invalidUtf8(names: string[]): void;
}

/** Lists every page; resolves with the list's resourceVersion. */
export async function listPages(list: ListRequest, sink: ListSink, signal: AbortSignal): Promise<string> {
  const { apiVersion, kind, label, pageSize, idleMs, maxPageBytes } = list;
  let cont = '';
  let listRv = '';
  let restarted = false;
  // The next page is asked for before this one is parsed (its continue
  // token is read with peekContinue), so the server serialises page n+1
  // while we parse and trim page n: on a 2-core machine the list takes
  // max(server, client) instead of their sum.
  let ahead: { cont: string; limit: number; body: Promise<Page>; abort: AbortController } | undefined;
  // A page over maxPageBytes is fetched again an object per page, for as many
  // objects as a page holds: only an object over the bound itself is skipped.
  let singlesLeft = 0;
  const fetchPage = (token: string, limit: number) =>
    fetchListPage(
      list.request,
      list.query(token ? { limit: String(limit), continue: token } : { limit: String(limit) }),
      { cont: token, limit, signal, idleMs, maxPageBytes },
    );
  try {
    for (;;) {
      const limit = singlesLeft > 0 ? 1 : pageSize;
      if (ahead && (ahead.cont !== cont || ahead.limit !== limit)) {
        ahead.abort.abort();
        ahead = undefined;
      }
      const current = ahead ?? fetchPage(cont, limit);
      ahead = undefined;
      let page: Page;
      try {
        page = await current.body;
      } catch (err) {
        if (err instanceof PageTooLargeError) {
          if (limit > 1) {
            singlesLeft = pageSize;
            continue;
          }
          // One object over the bound: reported, skipped; the list goes on after it.
          const head = err.protobuf ? '' : err.head.toString('utf8');
          const name = err.protobuf ? objectNameInProtobuf(err.head, false, true) : objectNameIn(head);
          sink.problem(
            `${label}: ${name ? `${kind} ${name}` : 'an object'} of over ${megabytes(err.bytes)} (the limit) skipped`,
          );
          singlesLeft -= 1;
          cont = err.protobuf ? peekListContinue(err.head) : peekContinue(head);
          if (!cont) break;
          continue;
        }
        if (cont && !restarted && err instanceof KubeApiError && err.status === 410) {
          // The continue token expired between pages: list again from the
          // start; what the first pages applied is held now, so whatever the
          // new list does not name is deleted at its end.
          restarted = true;
          sink.restarted();
          cont = '';
          continue;
        }
        throw err;
      }
      if (limit === 1) singlesLeft -= 1;
      if (page.protobuf) {
        const next = peekListContinue(page.bytes);
        if (next) ahead = fetchPage(next, singlesLeft > 0 ? 1 : pageSize);
        const meta = listedProtobuf(list, page.bytes, sink);
        listRv = meta.resourceVersion ?? listRv;
        cont = meta.continue ?? '';
        if (!cont) break;
        continue;
      }
      const body = page.bytes;
      // An ASCII page (nearly every page) read as latin1 is the same text at half the cost of a UTF-8 decode,
      // and a one-byte string parses faster (test/bench/README.md, ingestion option (b)).
      const ascii = isAscii(body);
      const text = body.toString(ascii ? 'latin1' : 'utf8');
      if (!ascii && !isUtf8(body)) sink.invalidUtf8(namesWithInvalidUtf8(text));
      const next = peekContinue(text);
      if (next) ahead = fetchPage(next, singlesLeft > 0 ? 1 : pageSize);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (err) {
        throw new KubeApiError(`${label}: list answered invalid JSON: ${(err as Error).message}`, 0, null);
      }
      if (!isRecord(parsed) || !Array.isArray(parsed.items)) {
        throw new KubeApiError(`${label}: list answer has no items`, 0, null);
      }
      // Trim and apply each object at once so the untrimmed ones die young:
      // each is let go of as soon as it is trimmed, so a young-generation
      // GC in the middle of a page copies only the objects not trimmed yet.
      const items: unknown[] = parsed.items;
      for (let i = 0; i < items.length; i++) {
        const raw = items[i];
        items[i] = undefined;
        sink.listed(list.trim(withTypeMeta(raw, apiVersion, kind)));
      }
      const meta = isRecord(parsed.metadata) ? parsed.metadata : {};
      listRv = typeof meta.resourceVersion === 'string' ? meta.resourceVersion : listRv;
      cont = typeof meta.continue === 'string' ? meta.continue : '';
      if (!cont) break;
    }
  } finally {
    ahead?.abort.abort();
  }
  return listRv;
}

/** A protobuf list page: each item decoded, trimmed and applied as it comes (as a parsed JSON page's are). */
function listedProtobuf(
  list: ListRequest,
  body: Buffer,
  sink: ListSink,
): { resourceVersion?: string; continue?: string } {
  const { apiVersion, kind } = list;
  const badUtf8: string[] = [];
  let decoded: DecodedList;
  try {
    decoded = decodeList(body, list.protobuf!, (raw, invalidUtf8) => {
      const obj = list.trim(withTypeMeta(raw, apiVersion, kind));
      if (invalidUtf8 && badUtf8.length < 5) badUtf8.push(nameOf(obj.metadata));
      sink.listed(obj);
    });
  } catch (err) {
    if (!(err instanceof ProtobufError)) throw err;
    throw new KubeApiError(`${list.label}: list answered invalid protobuf: ${err.message}`, 0, null);
  }
  if (badUtf8.length) sink.invalidUtf8(badUtf8);
  return decoded.metadata;
}
