/// Errors a person can act on, naming what and where.
public enum GatewayError: Error, CustomStringConvertible, Equatable {
    /// The database could not be opened or written.
    case database(path: String, reason: String)
    /// A socket could not be set up.
    case socket(what: String, reason: String)
    /// A file could not be read or written.
    case file(path: String, reason: String)
    /// A user input (flag, argument) is invalid.
    case invalidInput(String)

    /// What went wrong, without the path or the part named.
    public var reason: String {
        switch self {
        case .database(_, let reason), .socket(_, let reason), .file(_, let reason): reason
        case .invalidInput(let s): s
        }
    }

    /// One sentence.
    public var description: String {
        switch self {
        case .database(let path, let reason): "database \(path): \(reason)"
        case .socket(let what, let reason): "\(what): \(reason)"
        case .file(let path, let reason): "\(path): \(reason)"
        case .invalidInput(let s): s
        }
    }
}
