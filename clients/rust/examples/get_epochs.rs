//! Reads the epochs of work order "wo-1" from a local engine, typed and then dynamically.
//! Run: `PRAXIS_TOKEN=... cargo run --example get_epochs [-- 127.0.0.1:50051]`.

use praxis_client::aiws::engine::v1::GetEpochsRequest;
use praxis_client::dynamic::DynamicError;
use praxis_client::RpcError;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let address = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:50051".into());
    let token = std::env::var("PRAXIS_TOKEN")?;
    let mut clients = praxis_client::connect(&address, &token).await?;

    let request = GetEpochsRequest {
        work_order_id: "wo-1".into(),
    };
    match clients.registry.get_epochs(request).await {
        Ok(response) => println!("typed:   {:?}", response.into_inner().epochs),
        Err(status) => {
            let err = RpcError::from_status(&status);
            println!("failed:  {:?} {:?}", err.code, err.reason);
            std::process::exit(1);
        }
    }

    match clients
        .dynamic
        .invoke("RegistryService", "GetEpochs", r#"{"workOrderId":"wo-1"}"#)
        .await
    {
        Ok(json) => println!("dynamic: {json}"),
        Err(DynamicError::Status(status)) => {
            println!("failed:  {}", RpcError::from_status(&status));
            std::process::exit(1);
        }
        Err(other) => return Err(other.into()),
    }
    Ok(())
}
