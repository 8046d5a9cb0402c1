//! `connect`: one channel, every service's client, one bearer token.

use std::fmt;

use tonic::service::interceptor::InterceptedService;
use tonic::transport::{Channel, Endpoint};

use crate::aiws::engine::testing::v1::test_clock_service_client::TestClockServiceClient;
use crate::aiws::engine::v1::{
    admin_service_client::AdminServiceClient, approval_service_client::ApprovalServiceClient,
    assessment_service_client::AssessmentServiceClient,
    contract_service_client::ContractServiceClient, event_service_client::EventServiceClient,
    handoff_service_client::HandoffServiceClient,
    reconciliation_service_client::ReconciliationServiceClient,
    registry_service_client::RegistryServiceClient, run_service_client::RunServiceClient,
    simulation_service_client::SimulationServiceClient,
    task_service_client::TaskServiceClient, wait_service_client::WaitServiceClient,
};
use crate::auth::{BearerToken, InvalidToken};
use crate::dynamic::DynamicClient;

/// A channel that sends the bearer token on every call.
pub type AuthChannel = InterceptedService<Channel, BearerToken>;

/// The typed client of every engine service over one channel, named as in every Praxis
/// client (`registry`, `approvals`, `admin`, `runs`, `tasks`, `events`, `contracts`,
/// `reconciliations`, `waits`, `assessments`, `handoffs`, `simulations`, `test_clock`). Clients are cheap
/// to clone; calls take `&mut self`, so clone one per concurrent task.
#[derive(Clone, Debug)]
pub struct Clients {
    /// `aiws.engine.v1.RegistryService`.
    pub registry: RegistryServiceClient<AuthChannel>,
    /// `aiws.engine.v1.ApprovalService`.
    pub approvals: ApprovalServiceClient<AuthChannel>,
    /// `aiws.engine.v1.AdminService`.
    pub admin: AdminServiceClient<AuthChannel>,
    /// `aiws.engine.v1.RunService`.
    pub runs: RunServiceClient<AuthChannel>,
    /// `aiws.engine.v1.TaskService`.
    pub tasks: TaskServiceClient<AuthChannel>,
    /// `aiws.engine.v1.EventService`.
    pub events: EventServiceClient<AuthChannel>,
    /// `aiws.engine.v1.ContractService`.
    pub contracts: ContractServiceClient<AuthChannel>,
    /// `aiws.engine.v1.ReconciliationService`.
    pub reconciliations: ReconciliationServiceClient<AuthChannel>,
    /// `aiws.engine.v1.WaitService`.
    pub waits: WaitServiceClient<AuthChannel>,
    /// `aiws.engine.v1.AssessmentService`.
    pub assessments: AssessmentServiceClient<AuthChannel>,
    /// `aiws.engine.v1.HandoffService`.
    pub handoffs: HandoffServiceClient<AuthChannel>,
    /// `aiws.engine.v1.SimulationService`: dry runs by the server's pure core.
    pub simulations: SimulationServiceClient<AuthChannel>,
    /// `aiws.engine.testing.v1.TestClockService`; only on a server in test-clock mode.
    pub test_clock: TestClockServiceClient<AuthChannel>,
    /// Calls any unary RPC by name with proto-JSON.
    pub dynamic: DynamicClient<AuthChannel>,
}

impl Clients {
    /// Wraps a channel you built yourself (for TLS or custom timeouts).
    pub fn new(channel: Channel, token: BearerToken) -> Self {
        let authed = InterceptedService::new(channel, token);
        Self {
            registry: RegistryServiceClient::new(authed.clone()),
            approvals: ApprovalServiceClient::new(authed.clone()),
            admin: AdminServiceClient::new(authed.clone()),
            runs: RunServiceClient::new(authed.clone()),
            tasks: TaskServiceClient::new(authed.clone()),
            events: EventServiceClient::new(authed.clone()),
            contracts: ContractServiceClient::new(authed.clone()),
            reconciliations: ReconciliationServiceClient::new(authed.clone()),
            waits: WaitServiceClient::new(authed.clone()),
            assessments: AssessmentServiceClient::new(authed.clone()),
            handoffs: HandoffServiceClient::new(authed.clone()),
            simulations: SimulationServiceClient::new(authed.clone()),
            test_clock: TestClockServiceClient::new(authed.clone()),
            dynamic: DynamicClient::new(authed),
        }
    }
}

/// Why [`connect`] failed.
#[derive(Debug)]
pub enum ConnectError {
    /// The token cannot be sent as a header.
    Token(InvalidToken),
    /// The address is not a valid URI, or the connection failed.
    Transport(tonic::transport::Error),
}

impl fmt::Display for ConnectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Token(e) => write!(f, "{e}"),
            Self::Transport(e) => write!(f, "cannot connect: {e}"),
        }
    }
}

impl std::error::Error for ConnectError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Token(e) => Some(e),
            Self::Transport(e) => Some(e),
        }
    }
}

/// Connects in plaintext to a local engine (`"127.0.0.1:50051"` as started by
/// `praxis serve`, or a full `http://host:port` URI) and returns every service's client,
/// each sending `authorization: Bearer <token>`. For TLS, build a [`Channel`] yourself and
/// use [`Clients::new`].
pub async fn connect(address: &str, token: &str) -> Result<Clients, ConnectError> {
    let token = BearerToken::new(token).map_err(ConnectError::Token)?;
    let uri = if address.contains("://") {
        address.to_owned()
    } else {
        format!("http://{address}")
    };
    let channel = Endpoint::from_shared(uri)
        .map_err(ConnectError::Transport)?
        .connect()
        .await
        .map_err(ConnectError::Transport)?;
    Ok(Clients::new(channel, token))
}
