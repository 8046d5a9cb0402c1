//! Rust client for the Praxis engine (`aiws.engine.v1`).
//!
//! The generated [tonic] clients and [prost] messages live under [`aiws::engine::v1`] (and
//! [`aiws::engine::testing::v1`] for the test clock). Around them, a thin helper layer:
//!
//! - [`connect`] opens a channel and returns every service's client ([`Clients`]), each
//!   sending the bearer token through the [`BearerToken`] interceptor;
//! - [`Decimal`], a canonical decimal string (never floating point);
//! - [`epoch_ms`], conversions between `*_ms` fields and [`std::time::SystemTime`];
//! - [`RpcError`], the gRPC code, `ErrorInfo.reason` and `BadRequest` field violations of a
//!   failed call;
//! - [`dynamic`], calls to any unary RPC by name with proto-JSON in and out;
//! - [`worker`], the worker runtime: you write the handler, it claims, heartbeats and
//!   settles;
//! - [`trace`], the attempt's W3C `traceparent` made the handler's parent span (feature
//!   `otel`);
//! - [`helpers`], start a run and wait for its result, review-approve-execute, typed JSON.
//!
//! ```no_run
//! use praxis_client::aiws::engine::v1::GetEpochsRequest;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let mut clients = praxis_client::connect("127.0.0.1:50051", "my-token").await?;
//! let request = GetEpochsRequest { work_order_id: "wo-1".into() };
//! match clients.registry.get_epochs(request).await {
//!     Ok(response) => println!("{:?}", response.into_inner().epochs),
//!     Err(status) => {
//!         let err = praxis_client::RpcError::from_status(&status);
//!         println!("{:?} {:?}", err.code, err.reason);
//!     }
//! }
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs)]

mod auth;
mod connect;
mod decimal;
pub mod dynamic;
pub mod epoch_ms;
mod error;
pub mod helpers;
pub mod trace;
pub mod worker;

pub use auth::{BearerToken, InvalidToken};
pub use connect::{connect, AuthChannel, Clients, ConnectError};
pub use decimal::{Decimal, DecimalError};
pub use error::{FieldViolation, RpcError, DOMAIN};

/// Generated code (prost messages, tonic clients and servers); do not edit, regenerate with
/// `scripts/generate_java_rust.sh`.
#[allow(missing_docs, clippy::all, clippy::pedantic)]
pub mod aiws {
    /// Package `aiws.engine`.
    pub mod engine {
        /// Package `aiws.engine.v1`: the public contract.
        pub mod v1 {
            include!("gen/aiws.engine.v1.rs");
        }
        /// Test-only services.
        pub mod testing {
            /// Package `aiws.engine.testing.v1`: the test clock.
            pub mod v1 {
                include!("gen/aiws.engine.testing.v1.rs");
            }
        }
    }
}
