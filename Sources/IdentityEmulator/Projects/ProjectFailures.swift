extension BackendFailure {
    /// Google's answer to a key it does not know.
    static let invalidAPIKey = badRequest("API key not valid. Please pass a valid API key.")
    static func projectPermissionDenied(_ projectId: String) -> BackendFailure {
        BackendFailure(status: 403, message: "PERMISSION_DENIED : The caller does not have permission on project \(projectId).")
    }
    static func invalidProjectId(_ projectId: String) -> BackendFailure {
        invalidArgument("Invalid project id '\(projectId.prefix(40))': 6 to 30 lower-case letters, digits and hyphens, starting with a letter.")
    }
    static func projectNotFound(_ projectId: String, served: String) -> BackendFailure {
        BackendFailure(status: 404, message: "PROJECT_NOT_FOUND : No project \(projectId) on this server, which is configured for \(served) by default.")
    }
    /// Out of file descriptors (`DescriptorBudget`): a moment later, idle projects have given theirs back.
    static let descriptorsExhausted = BackendFailure(status: 503, message: "UNAVAILABLE : The server is at its limit of open files; try again in a moment.",
                                                     retryAfter: 1)
    /// A project whose database is refused at its opening (emptied, gone, damaged): the server's log says
    /// which. No `Retry-After`: it stays refused until someone repairs it.
    static let projectDataUnavailable = BackendFailure(status: 503, message: "UNAVAILABLE : This project's data cannot be opened; the server's log says why.")
    static func tooManyProjects(_ limit: Int) -> BackendFailure {
        BackendFailure(status: 429, message: "RESOURCE_EXHAUSTED : This server holds its limit of \(limit) projects; remove one first.")
    }
}
