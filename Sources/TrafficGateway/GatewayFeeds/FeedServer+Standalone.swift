import GatewaySupport

extension FeedServer {
    /// Binds and serves outside a service group, returning once it accepts connections (tests,
    /// benchmarks, the fuzzer; `gatewayd run` runs the server as a service of its group instead).
    package func start(host: String, port: Int) throws(GatewayError) {
        try bind(host: host, port: port)
        try listen()
    }

    /// Stops serving (`start`) and ends every `/alerts` stream (the server's shutdown hook).
    package func stop() { server.value?.stop() }
}
