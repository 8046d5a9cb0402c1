// Package praxis is the thin helper layer over the generated Praxis gRPC stubs
// (packages enginev1 and testingv1): bearer-token credentials, canonical decimal strings,
// epoch-millisecond times, error reasons from failed calls, a Connect convenience that
// returns every typed service client, and InvokeJSON, which calls any unary RPC by
// service and method name with a proto-JSON request.
package praxis
