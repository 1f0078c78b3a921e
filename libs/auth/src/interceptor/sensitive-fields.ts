// Field-level sensitivity: `(signage.options.v1.sensitive_field)` on a request
// field (found through singular message fields, e.g. UpdateUserRequest.user.password)
// makes a call sensitive when that field is set, and for enum fields with
// `enum_values` only when it is set to one of them.
import { getOption, hasOption, type DescField, type DescMessage, type Message } from "@bufbuild/protobuf";
import { reflect, type ReflectMessage } from "@bufbuild/protobuf/reflect";
import { sensitive_field } from "@signage/contracts/signage/options/v1/options_pb";

export interface SensitiveFieldRule {
  /** From the request message down to the marked field. */
  path: readonly DescField[];
  /** Enum numbers that make the change sensitive; undefined = any set value. */
  enumValues: ReadonlySet<number> | undefined;
}

/** Every marked field reachable from `input` (cycles in the message graph are cut). */
export function sensitiveFieldRules(input: DescMessage): SensitiveFieldRule[] {
  const rules: SensitiveFieldRule[] = [];
  const walk = (message: DescMessage, prefix: DescField[], seen: Set<string>) => {
    for (const field of message.fields) {
      if (hasOption(field, sensitive_field)) rules.push({ path: [...prefix, field], enumValues: enumValuesOf(field) });
      if (field.fieldKind === "message" && !seen.has(field.message.typeName)) {
        walk(field.message, [...prefix, field], new Set([...seen, field.message.typeName]));
      }
    }
  };
  walk(input, [], new Set([input.typeName]));
  return rules;
}

function enumValuesOf(field: DescField): ReadonlySet<number> | undefined {
  const names = getOption(field, sensitive_field).enumValues;
  if (names.length === 0) return undefined;
  if (field.fieldKind !== "enum") throw new TypeError(`${field.toString()}: sensitive_field.enum_values needs an enum field`);
  return new Set(
    names.map((name) => {
      const value = field.enum.values.find((v) => v.name === name);
      if (!value) throw new TypeError(`${field.toString()}: sensitive_field names unknown enum value ${name}`);
      return value.number;
    }),
  );
}

/** The first rule the request matches (its dotted field path), or undefined. */
export function touchedSensitiveField(input: DescMessage, message: Message, rules: readonly SensitiveFieldRule[]): string | undefined {
  if (rules.length === 0) return undefined;
  const root = reflect(input, message);
  for (const rule of rules) {
    if (matches(root, rule)) return rule.path.map((f) => f.jsonName).join(".");
  }
  return undefined;
}

function matches(root: ReflectMessage, rule: SensitiveFieldRule): boolean {
  let current = root;
  for (const [i, field] of rule.path.entries()) {
    if (!current.isSet(field)) return false;
    const last = i === rule.path.length - 1;
    if (last) {
      if (!rule.enumValues) return true;
      return rule.enumValues.has(current.get(field) as number);
    }
    current = current.get(field) as ReflectMessage;
  }
  return false;
}
