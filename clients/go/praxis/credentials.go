package praxis

import (
	"context"

	"google.golang.org/grpc/credentials"
)

// BearerToken returns per-RPC credentials that send `authorization: Bearer <token>` on
// every call. They do not require transport security, so they work over the insecure
// loopback connection of a local `praxis serve`; use TLS for anything else, since the
// token travels in clear text otherwise.
func BearerToken(token string) credentials.PerRPCCredentials {
	return bearerToken{header: "Bearer " + token}
}

type bearerToken struct{ header string }

func (b bearerToken) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": b.header}, nil
}

func (bearerToken) RequireTransportSecurity() bool { return false }
