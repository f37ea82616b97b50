import autocannon from 'autocannon';

let unique = 0;

/**
 * POST /payment-request with a new transactionId each time; `keys` are used in turn; `idempotent`
 * adds an Idempotency-Key, a new one per request (first requests: what the key adds to a create).
 */
export function createRequest(
  keys: string | string[],
  label: string,
  idempotent = false,
): autocannon.Request {
  const all = typeof keys === 'string' ? [keys] : keys;
  return {
    method: 'POST',
    path: '/api/v1/payment-request',
    headers: { authorization: all[0], 'content-type': 'application/json' },
    setupRequest: (req) => {
      const n = ++unique;
      return {
        ...req,
        headers: {
          ...req.headers,
          authorization: all[n % all.length],
          ...(idempotent
            ? { 'idempotency-key': `${label}-${n}-${Math.random().toString(36).slice(2)}` }
            : {}),
        },
        body: JSON.stringify({
          transactionId: `${label}-${n}-${Math.random().toString(36).slice(2)}`,
          amount: 1500,
        }),
      };
    },
  };
}

/** GET /payment-request/by-transaction/:id over `transactionIds`, in turn. */
export function lookupRequest(key: string, transactionIds: string[]): autocannon.Request {
  let i = 0;
  return {
    method: 'GET',
    headers: { authorization: key },
    setupRequest: (req) => ({
      ...req,
      path: `/api/v1/payment-request/by-transaction/${transactionIds[i++ % transactionIds.length]}`,
    }),
  };
}
