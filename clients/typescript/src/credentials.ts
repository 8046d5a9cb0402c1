import type { Interceptor } from "@connectrpc/connect";

/**
 * An interceptor that sends `authorization: Bearer <token>` on every call, unary and
 * streaming. Add it to a transport's `interceptors`. It does not check that the
 * connection is encrypted: a local `praxis serve` on loopback is plaintext; use an
 * `https://` address for anything else, since the token travels in clear text otherwise.
 */
export function bearerAuth(token: string): Interceptor {
  const value = `Bearer ${token}`;
  return (next) => (req) => {
    req.header.set("authorization", value);
    return next(req);
  };
}
