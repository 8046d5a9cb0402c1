// Every generated message, enum and service of package aiws.engine.v1 (the contract).
// Keep in step with proto/aiws/engine/v1: test/registry.test.ts fails when a generated
// file is missing from `praxisRegistry`, which is built from these modules.
export * from "./gen/aiws/engine/v1/admin_pb.js";
export * from "./gen/aiws/engine/v1/approval_pb.js";
export * from "./gen/aiws/engine/v1/assessment_pb.js";
export * from "./gen/aiws/engine/v1/common_pb.js";
export * from "./gen/aiws/engine/v1/config_pb.js";
export * from "./gen/aiws/engine/v1/contract_pb.js";
export * from "./gen/aiws/engine/v1/errors_pb.js";
export * from "./gen/aiws/engine/v1/event_pb.js";
export * from "./gen/aiws/engine/v1/handoff_pb.js";
export * from "./gen/aiws/engine/v1/inbox_pb.js";
export * from "./gen/aiws/engine/v1/notification_pb.js";
export * from "./gen/aiws/engine/v1/principal_pb.js";
export * from "./gen/aiws/engine/v1/reconciliation_pb.js";
export * from "./gen/aiws/engine/v1/registry_pb.js";
export * from "./gen/aiws/engine/v1/run_pb.js";
export * from "./gen/aiws/engine/v1/schedule_pb.js";
export * from "./gen/aiws/engine/v1/simulation_pb.js";
export * from "./gen/aiws/engine/v1/task_pb.js";
export * from "./gen/aiws/engine/v1/wait_pb.js";
export * from "./gen/aiws/engine/v1/work_order_pb.js";
