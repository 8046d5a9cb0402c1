//! Bearer-token credentials.

use std::fmt;

use tonic::metadata::{Ascii, MetadataValue};
use tonic::service::Interceptor;
use tonic::{Request, Status};

/// An [`Interceptor`] that adds `authorization: Bearer <token>` to every call.
///
/// ```
/// use praxis_client::aiws::engine::v1::registry_service_client::RegistryServiceClient;
/// use praxis_client::BearerToken;
///
/// # fn f(channel: tonic::transport::Channel) -> Result<(), praxis_client::InvalidToken> {
/// let client = RegistryServiceClient::with_interceptor(channel, BearerToken::new("my-token")?);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct BearerToken {
    header: MetadataValue<Ascii>,
}

/// The token is empty or holds a space or non-printable character, so it cannot travel as
/// one header value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidToken;

impl fmt::Display for InvalidToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("bearer token is empty or has a space or non-printable character")
    }
}

impl std::error::Error for InvalidToken {}

impl BearerToken {
    /// Credentials for one token (from the local config of `praxis serve`).
    pub fn new(token: &str) -> Result<Self, InvalidToken> {
        if token.is_empty() || !token.bytes().all(|b| b > 0x20 && b < 0x7f) {
            return Err(InvalidToken);
        }
        let header = format!("Bearer {token}")
            .parse()
            .map_err(|_| InvalidToken)?;
        Ok(Self { header })
    }
}

impl fmt::Debug for BearerToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BearerToken(redacted)")
    }
}

impl Interceptor for BearerToken {
    fn call(&mut self, mut request: Request<()>) -> Result<Request<()>, Status> {
        request
            .metadata_mut()
            .insert("authorization", self.header.clone());
        Ok(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_authorization_header() {
        let mut token = BearerToken::new("s3cret.token-1").unwrap();
        let request = token.call(Request::new(())).unwrap();
        let value = request.metadata().get("authorization").unwrap();
        assert_eq!(value.to_str().unwrap(), "Bearer s3cret.token-1");
    }

    #[test]
    fn replaces_an_existing_header() {
        let mut token = BearerToken::new("right").unwrap();
        let mut request = Request::new(());
        request
            .metadata_mut()
            .insert("authorization", "Bearer wrong".parse().unwrap());
        let request = token.call(request).unwrap();
        let values: Vec<_> = request.metadata().get_all("authorization").iter().collect();
        assert_eq!(values.len(), 1);
        assert_eq!(values[0].to_str().unwrap(), "Bearer right");
    }

    #[test]
    fn rejects_unusable_tokens() {
        for bad in ["", "a b", "a\nb", "tök", "a\u{7f}"] {
            assert_eq!(BearerToken::new(bad).unwrap_err(), InvalidToken, "{bad:?}");
        }
    }

    #[test]
    fn debug_hides_the_token() {
        let token = BearerToken::new("s3cret").unwrap();
        assert!(!format!("{token:?}").contains("s3cret"));
    }
}
