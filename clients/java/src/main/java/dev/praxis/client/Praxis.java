package dev.praxis.client;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;

/** Entry point: connect to an engine and get its typed clients. */
public final class Praxis {
  private Praxis() {}

  /**
   * Opens a plaintext channel to a local engine (for example {@code "127.0.0.1:50051"}, as
   * started by {@code praxis serve}) and returns every service's client, each sending {@code
   * authorization: Bearer <token>}. For TLS, build the channel yourself and use {@link
   * PraxisClients#PraxisClients(io.grpc.Channel, io.grpc.CallCredentials)}.
   *
   * @param target host:port of the engine
   * @param token the bearer token from the local config
   */
  public static PraxisClients connect(String target, String token) {
    BearerToken credentials = new BearerToken(token);
    ManagedChannel channel = ManagedChannelBuilder.forTarget(target).usePlaintext().build();
    return new PraxisClients(channel, channel, credentials);
  }
}
