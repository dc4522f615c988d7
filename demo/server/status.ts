// meta/v1 Status objects, worded as the real apiserver words them, so clients
// (kubectl's error printer, client-node's ApiException) see what they expect.

export interface StatusObject {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never> | { resourceVersion?: string };
  status: 'Failure' | 'Success';
  message: string;
  reason: string;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    causes?: Array<{ reason?: string; message: string; field?: string }>;
  };
  code: number;
}

export function statusFailure(
  code: number,
  reason: string,
  message: string,
  details?: StatusObject['details'],
): StatusObject {
  const s: StatusObject = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
  if (details) s.details = details;
  return s;
}

export function notFound(plural: string, group: string, name: string): StatusObject {
  const qualified = group ? `${plural}.${group}` : plural;
  return statusFailure(404, 'NotFound', `${qualified} "${name}" not found`, {
    name,
    ...(group ? { group } : {}),
    kind: plural,
  });
}

export function pathNotFound(): StatusObject {
  return statusFailure(404, 'NotFound', 'the server could not find the requested resource', {});
}

export function unauthorized(): StatusObject {
  return statusFailure(401, 'Unauthorized', 'Unauthorized');
}

export function methodNotAllowed(): StatusObject {
  return statusFailure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
}

export function badRequest(message: string): StatusObject {
  return statusFailure(400, 'BadRequest', message);
}

export function expired(message: string): StatusObject {
  return statusFailure(410, 'Expired', message);
}

export function invalid(kind: string, message: string, field: string): StatusObject {
  return statusFailure(422, 'Invalid', `${kind} is invalid: ${field}: ${message}`, {
    kind,
    causes: [{ reason: 'FieldValueForbidden', message, field }],
  });
}

export function tooLargeResourceVersion(requested: number, current: number): StatusObject {
  return statusFailure(504, 'Timeout', `Too large resource version: ${requested}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
  });
}
