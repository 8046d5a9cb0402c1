// Every generated message and service of package aiws.engine.testing.v1 (test clock).
export * from "./gen/aiws/engine/testing/v1/clock_pb.js";
