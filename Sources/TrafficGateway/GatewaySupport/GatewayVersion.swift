/// The gateway's version, in one place: what `gatewayd --version` prints, the Debian package's
/// version (`deploy/build-deb.sh` takes it from there) and what the cockpit page's status shows.
public enum GatewayVersion {
    /// The version, a Debian version string (`MAJOR.MINOR.PATCH`).
    public static let current = "0.19.0"
}
