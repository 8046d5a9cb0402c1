use praxis_client::worker::{HandlerResult, Outcome, TaskContext, Worker, WorkerOptions};

/// The handler: {"text": ...} -> {"summary": its first 100 characters}. Everything else
/// is the runtime's job.
pub async fn summarise(ctx: TaskContext) -> HandlerResult {
    let text = ctx.input()["text"].as_str().unwrap_or_default();
    if text.is_empty() {
        return Err(Outcome::not_applied("no text to summarise", false).into());
    }
    let summary: String = text.chars().take(100).collect();
    Ok(Outcome::applied(&serde_json::json!({ "summary": summary })).with_cost("12.5".parse()?))
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let token = std::env::var("PRAXIS_TOKEN")?;
    let clients = praxis_client::connect("127.0.0.1:50051", &token).await?;
    let options = WorkerOptions::new(["summarise"]).concurrency(4);
    Worker::new(&clients, options, summarise)
        .run_until(tokio::signal::ctrl_c()) // then drains and settles
        .await?;
    Ok(())
}
