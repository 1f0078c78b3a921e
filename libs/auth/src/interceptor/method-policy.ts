import { getOption, ScalarType, type DescField, type DescMethod } from "@bufbuild/protobuf";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { allowed_before_2fa_setup, customer_selector, min_role, sensitive, totp_code } from "@signage/contracts/signage/options/v1/options_pb";
import { sensitiveFieldRules, type SensitiveFieldRule } from "./sensitive-fields.js";

/** A method's access rules as written in its proto options. */
export interface MethodPolicy {
  minRole: Role;
  sensitive: boolean;
  /** Request fields that make a call sensitive when set (`sensitive_field`). */
  sensitiveFields: readonly SensitiveFieldRule[];
  /** The request's top-level `customer_id` field, when the method documents the selector. */
  customerIdField: DescField | undefined;
  /** A top-level string field marked `totp_code`: the caller's TOTP code, as the `x-totp` header would carry it. */
  totpCodeField: DescField | undefined;
  /** `allowed_before_2fa_setup`: a user who must set up 2FA first may call it (read itself, set up 2FA, ...). */
  allowedBefore2faSetup: boolean;
}

// The standard gRPC health service is vendored without our options; Kubernetes
// probes and the gateway's readiness check call it without a token.
const PUBLIC_SERVICES = new Set(["grpc.health.v1.Health"]);

// Descriptors are immutable, so the options are read once per method, not per call.
const policies = new WeakMap<DescMethod, MethodPolicy>();

export function methodPolicy(method: DescMethod): MethodPolicy {
  let policy = policies.get(method);
  if (!policy) {
    policy = {
      minRole: PUBLIC_SERVICES.has(method.parent.typeName) ? Role.PUBLIC : (getOption(method, min_role) ?? Role.UNSPECIFIED),
      sensitive: getOption(method, sensitive),
      sensitiveFields: sensitiveFieldRules(method.input),
      customerIdField: getOption(method, customer_selector)
        ? method.input.fields.find((f) => f.name === "customer_id" && f.fieldKind === "scalar")
        : undefined,
      totpCodeField: method.input.fields.find((f) => f.fieldKind === "scalar" && f.scalar === ScalarType.STRING && getOption(f, totp_code)),
      allowedBefore2faSetup: getOption(method, allowed_before_2fa_setup),
    };
    policies.set(method, policy);
  }
  return policy;
}
