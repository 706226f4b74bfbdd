package dev.warden.core.failure;

import dev.warden.core.error.ErrorCode;
import java.util.Optional;

/**
 * The one table of status and type names other software uses, to Warden's codes: gRPC codes
 * (numbers and names, also used by Google APIs), GraphQL {@code extensions.code} values, AWS error
 * types and Warden's own names. A name is structure the server chose, so it is evidence. A value
 * with no clear meaning for the caller (gRPC {@code CANCELLED}) maps to nothing, so what else the
 * failure says decides. A {@code switch} on strings: no regex, no map. HTTP statuses are in
 * {@link HttpStatuses}.
 */
public final class StatusNames {

    private StatusNames() {
    }

    /** gRPC status code number ({@code google.rpc.Code}) to code. */
    public static Optional<ErrorCode> ofGrpcCode(int code) {
        return code >= 0 && code < GRPC_NAMES.length ? ofName(GRPC_NAMES[code]) : Optional.empty();
    }

    /** The name of gRPC code {@code code}, e.g. {@code INVALID_ARGUMENT} for 3. */
    public static Optional<String> grpcName(int code) {
        return code >= 0 && code < GRPC_NAMES.length ? Optional.of(GRPC_NAMES[code]) : Optional.empty();
    }

    private static final String[] GRPC_NAMES = {"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT",
        "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED",
        "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE",
        "DATA_LOSS", "UNAUTHENTICATED"};

    /**
     * A status or type name to code, whatever its case and separators: {@code INVALID_ARGUMENT},
     * {@code BAD_USER_INPUT}, {@code ValidationException}, {@code not_found}, {@code Throttling}…
     * An AWS type with a namespace or a suffix ({@code com.amazonaws.dynamodb.v20120810#ResourceNotFoundException},
     * {@code ValidationException:http://…}) is reduced to its name first.
     */
    public static Optional<ErrorCode> ofName(String name) {
        if (name == null || name.isEmpty() || name.length() > 200) {
            return Optional.empty();
        }
        String n = normalize(awsTypeName(name));
        ErrorCode code = switch (n) {
            // gRPC / Google API status names
            case "INVALIDARGUMENT", "OUTOFRANGE" -> ErrorCode.VALIDATION_ERROR;
            case "NOTFOUND" -> ErrorCode.NOT_FOUND;
            case "PERMISSIONDENIED", "UNAUTHENTICATED" -> ErrorCode.PERMISSION_DENIED;
            case "ALREADYEXISTS", "ABORTED", "FAILEDPRECONDITION" -> ErrorCode.CONFLICT;
            case "RESOURCEEXHAUSTED" -> ErrorCode.RATE_LIMITED;
            case "DEADLINEEXCEEDED" -> ErrorCode.TIMEOUT;
            case "INTERNAL", "UNAVAILABLE", "UNKNOWN", "DATALOSS" -> ErrorCode.UPSTREAM_ERROR;
            // GraphQL (Apollo Server's and common extensions.code values)
            case "BADUSERINPUT", "BADREQUEST", "GRAPHQLVALIDATIONFAILED", "GRAPHQLPARSEFAILED",
                 "VALIDATION", "VALIDATIONFAILED", "INVALIDINPUT", "UNPROCESSABLEENTITY" -> ErrorCode.VALIDATION_ERROR;
            case "FORBIDDEN", "UNAUTHORIZED", "ACCESSDENIED" -> ErrorCode.PERMISSION_DENIED;
            case "CONFLICT" -> ErrorCode.CONFLICT;
            case "INTERNALSERVERERROR", "SERVICEUNAVAILABLE", "BADGATEWAY" -> ErrorCode.UPSTREAM_ERROR;
            case "TOOMANYREQUESTS", "RATELIMITED", "THROTTLED" -> ErrorCode.RATE_LIMITED;
            case "TIMEOUT", "GATEWAYTIMEOUT", "TIMEDOUT" -> ErrorCode.TIMEOUT;
            // AWS error types (__type, Error.Code, an SDK error's name)
            case "VALIDATIONEXCEPTION", "VALIDATIONERROR", "INVALIDPARAMETEREXCEPTION",
                 "INVALIDPARAMETERVALUEEXCEPTION", "INVALIDPARAMETERVALUE", "INVALIDREQUESTEXCEPTION",
                 "MISSINGPARAMETER", "SERIALIZATIONEXCEPTION" -> ErrorCode.VALIDATION_ERROR;
            case "RESOURCENOTFOUNDEXCEPTION", "NOTFOUNDEXCEPTION", "NOSUCHKEY", "NOSUCHBUCKET",
                 "NOSUCHENTITY", "NOSUCHENTITYEXCEPTION" -> ErrorCode.NOT_FOUND;
            case "ACCESSDENIEDEXCEPTION", "UNAUTHORIZEDEXCEPTION", "UNRECOGNIZEDCLIENTEXCEPTION",
                 "INVALIDSIGNATUREEXCEPTION", "MISSINGAUTHENTICATIONTOKEN", "EXPIREDTOKENEXCEPTION",
                 "INCOMPLETESIGNATURE", "NOTAUTHORIZED", "FORBIDDENEXCEPTION" -> ErrorCode.PERMISSION_DENIED;
            case "THROTTLINGEXCEPTION", "THROTTLING", "TOOMANYREQUESTSEXCEPTION",
                 "PROVISIONEDTHROUGHPUTEXCEEDEDEXCEPTION", "REQUESTLIMITEXCEEDED", "SLOWDOWN",
                 "LIMITEXCEEDEDEXCEPTION", "REQUESTTHROTTLEDEXCEPTION" -> ErrorCode.RATE_LIMITED;
            case "CONFLICTEXCEPTION", "RESOURCEINUSEEXCEPTION", "CONDITIONALCHECKFAILEDEXCEPTION",
                 "TRANSACTIONCONFLICTEXCEPTION", "RESOURCEALREADYEXISTSEXCEPTION",
                 "ALREADYEXISTSEXCEPTION" -> ErrorCode.CONFLICT;
            case "REQUESTTIMEOUT", "REQUESTTIMEOUTEXCEPTION" -> ErrorCode.TIMEOUT;
            case "INTERNALSERVEREXCEPTION", "INTERNALFAILURE", "INTERNALERROR", "SERVICEUNAVAILABLEEXCEPTION",
                 "INTERNALSERVICEERROR", "SERVICEEXCEPTION" -> ErrorCode.UPSTREAM_ERROR;
            // Warden's own names, from a Warden upstream
            case "UPSTREAMERROR" -> ErrorCode.UPSTREAM_ERROR;
            case "BLOCKED" -> ErrorCode.BLOCKED;
            default -> null;
        };
        return Optional.ofNullable(code);
    }

    /** {@code ns#Name:suffix} (Smithy's awsJson rules) to {@code Name}. */
    static String awsTypeName(String type) {
        int hash = type.indexOf('#');
        String t = hash >= 0 ? type.substring(hash + 1) : type;
        int colon = t.indexOf(':');
        return colon >= 0 ? t.substring(0, colon) : t;
    }

    /** Upper-case ASCII letters and digits only: {@code not_found}, {@code Not Found}, {@code NOT-FOUND} alike. */
    private static String normalize(String name) {
        StringBuilder s = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c >= 'a' && c <= 'z') {
                s.append((char) (c - 32));
            } else if ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
                s.append(c);
            }
        }
        return s.toString();
    }
}
