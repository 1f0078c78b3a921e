import { InvalidFilterError, UnknownFieldError } from "../errors.js";
import { FILTER_OPERATORS, type FilterComparison, type FilterNode } from "../filter/ast.js";
import { printFilter } from "../filter/print-filter.js";
import { isRelation, type ResolvedScalarField, type ResourceRegistry } from "../registry/resource.js";
import { fieldExpression } from "../sql/field-expression.js";
import { isNotNullPredicate, isNullPredicate, negate, positivePredicate, type PositiveOperator } from "../sql/predicates.js";
import type { CompiledFilter, ExistsHop } from "./compiled-filter.js";
import { resolvePath, type PathHop } from "./resolve-path.js";
import { typedValue, ValueProblem } from "./typed-values.js";
import { describeKind, operatorsFor, valueKindOf, type ValueKind } from "./value-kind.js";

export interface CompileFilterOptions {
  readonly parameter?: string;
  /** Prefix of the aliases given to EXISTS subqueries; distinct per filter in one query. */
  readonly aliasPrefix?: string;
}

/**
 * Checks a filter AST against the resource registry and turns it into SQL predicates.
 * Semantics (README "Filter semantics"): a comparison through relations holds when SOME
 * related row satisfies it; ≠ and ∉ are the exact negations of = and :; `=NULL` means null
 * or empty collection, `=!NULL` its negation. Throws ListQueryError subclasses only.
 */
export function compileFilter(resource: ResourceRegistry, node: FilterNode, options: CompileFilterOptions = {}): CompiledFilter {
  const compiler = new FilterCompiler(resource, options.parameter ?? "search", options.aliasPrefix ?? "_f");
  return compiler.compile(node);
}

class FilterCompiler {
  private aliasCount = 0;

  constructor(
    private readonly resource: ResourceRegistry,
    private readonly parameter: string,
    private readonly aliasPrefix: string,
  ) {}

  compile(node: FilterNode): CompiledFilter {
    if (node?.kind === "comparison") return this.comparison(node);
    if ((node?.kind !== "and" && node?.kind !== "or") || !Array.isArray(node.children) || node.children.length === 0) {
      throw new InvalidFilterError(`Invalid ${this.parameter}: malformed filter tree (an and/or node needs children)`, "", this.parameter);
    }
    return { kind: node.kind, children: node.children.map((child) => this.compile(child)) };
  }

  /** Trees built in code (quick filters) get the guarantees parseFilter gives. */
  private checkShape(node: FilterComparison): void {
    const value = node.value;
    const wellFormed =
      typeof node.field === "string" &&
      FILTER_OPERATORS.includes(node.operator) &&
      value !== null &&
      typeof value === "object" &&
      (value.kind === "text"
        ? typeof value.text === "string" && node.operator !== "∈"
        : value.kind === "set"
          ? node.operator === "∈" && Array.isArray(value.items) && value.items.length > 0 && value.items.every((item) => typeof item === "string")
          : (value.kind === "null" || value.kind === "notNull") && node.operator === "=");
    if (!wellFormed) {
      throw new InvalidFilterError(`Invalid ${this.parameter}: malformed comparison on '${String(node.field)}'`, String(node.field), this.parameter, node.position);
    }
  }

  private comparison(node: FilterComparison): CompiledFilter {
    this.checkShape(node);
    const path = resolvePath(this.resource, node.field, (field) => field.searchable);
    if (path.kind === "unknown") {
      // A published field whose value only exists after the query: say so, rather than "unknown".
      const late = resolvePath(this.resource, node.field, (field) => field.searchable || (!isRelation(field) && field.completedAfterQuery));
      if (late.kind === "field" && late.field.completedAfterQuery) {
        this.fail(node, `'${node.field}' is computed per caller after the query, so search cannot compare it`);
      }
      // A field of the published schema (select returns it) is not "unknown"; say it is not searchable.
      const published = resolvePath(this.resource, node.field, (field) => field.searchable || field.selectable);
      if (published.kind === "field" || published.kind === "relation") {
        this.fail(node, `'${node.field}' cannot be used in search (it is only returned by select); searchable fields: ${path.knownFields.join(", ")}`);
      }
      throw new UnknownFieldError(this.parameter, path.field, path.knownFields, node.position, "search");
    }
    if (path.kind === "notNested") this.fail(node, `field '${path.field}' has no nested fields`);

    if (path.kind === "relation") {
      if (node.value.kind !== "null" && node.value.kind !== "notNull") {
        const example = exampleField(path.entity);
        const hint = example === undefined ? "" : `compare one of its fields (e.g. ${node.field}.${example}=<${example === "id" || example.endsWith(".id") ? "id" : "value"}>) or `;
        this.fail(node, `'${node.field}' is a relation; ${hint}use =NULL / =!NULL`);
      }
      return { kind: "exists", negated: node.value.kind === "null", hops: this.existsHops(path.hops), predicate: null };
    }

    const { hops, column } = shortcutForeignKey(path.hops, path.field);
    const existsHops = this.existsHops(hops);
    const alias = existsHops.length > 0 ? existsHops[existsHops.length - 1].alias : this.resource.alias;
    const kind = valueKindOf(path.field, path.jsonPath);
    let expr = fieldExpression(path.field, column, alias);
    if (path.jsonPath.length > 0) expr = { sql: `(${expr.sql} #>> ?::text[])`, bindings: [...expr.bindings, path.jsonPath] };

    if (node.value.kind === "null" || node.value.kind === "notNull") {
      // Through relations: `=NULL` holds when no related row has a non-null value.
      if (existsHops.length === 0) {
        return { kind: "predicate", predicate: node.value.kind === "null" ? isNullPredicate(expr, kind) : isNotNullPredicate(expr, kind) };
      }
      return { kind: "exists", negated: node.value.kind === "null", hops: existsHops, predicate: isNotNullPredicate(expr, kind) };
    }

    const allowed = operatorsFor(kind);
    if (!allowed.includes(node.operator)) {
      const options = [...allowed, "=NULL", "=!NULL"].join(" ");
      this.fail(node, `operator '${node.operator}' does not apply to '${node.field}' (${describeKind(kind)}); use one of ${options}`);
    }
    const negated = node.operator === "≠" || node.operator === "∉";
    const operator: PositiveOperator = node.operator === "≠" ? "=" : node.operator === "∉" ? ":" : node.operator;
    // A range on a numeric id compares numbers: its bound is read as a number field's (400 when it is none), not as an opaque id (matching nothing).
    const valueKind: ValueKind = kind.kind === "id" && kind.sqlType === "bigint" && RANGE_OPERATORS.has(node.operator) ? { kind: "number", sqlType: "bigint" } : kind;
    const predicate = positivePredicate(expr, valueKind, operator, this.typedValues(node, valueKind));
    if (existsHops.length === 0) return { kind: "predicate", predicate: negated ? negate(predicate) : predicate };
    return { kind: "exists", negated, hops: existsHops, predicate };
  }

  /** The comparison's values for binding; values no row can hold are left out. */
  private typedValues(node: FilterComparison, kind: ValueKind): unknown[] {
    const texts = node.value.kind === "set" ? node.value.items : node.value.kind === "text" ? [node.value.text] : [];
    const values: unknown[] = [];
    for (const text of texts) {
      try {
        const typed = typedValue(kind, text);
        if (typed.ok) values.push(typed.value);
      } catch (error) {
        if (error instanceof ValueProblem) this.fail(node, `${error.message} (field '${node.field}' is of type ${describeKind(kind)})`);
        throw error;
      }
    }
    return values;
  }

  private existsHops(hops: readonly PathHop[]): ExistsHop[] {
    let parentAlias = this.resource.alias;
    return hops.map((hop) => {
      const alias = `${this.aliasPrefix}${++this.aliasCount}`;
      const made = { table: hop.target.table, alias, targetColumn: hop.relation.targetColumn, parentAlias, localColumn: hop.relation.localColumn };
      parentAlias = alias;
      return made;
    });
  }

  private fail(node: FilterComparison, problem: string): never {
    const at = node.position === undefined ? "" : ` at position ${node.position}`;
    throw new InvalidFilterError(`Invalid ${this.parameter}${at} in '${printFilter(node)}': ${problem}`, node.field, this.parameter, node.position);
  }
}

const RANGE_OPERATORS: ReadonlySet<string> = new Set([">", "≥", "<", "≤"]);

/**
 * A path the relation hint can offer that search accepts: the related row's id, else the id of a
 * to-one relation of it (a team assignment has no id of its own: `teamAssignments.team.id`, as
 * "Teams on resources" writes it), else its first searchable field.
 */
function exampleField(entity: ResourceRegistry, depth = 0): string | undefined {
  const id = entity.idField === null ? undefined : entity.fields.get(entity.idField);
  if (id !== undefined && id.searchable) return id.name;
  if (depth < 2) {
    for (const field of entity.fields.values()) {
      if (!isRelation(field) || !field.searchable || field.cardinality !== "one") continue;
      const inner = exampleField(field.resolveTarget(), depth + 1);
      if (inner !== undefined) return `${field.name}.${inner}`;
    }
  }
  return [...entity.fields.values()].find((field) => !isRelation(field) && field.searchable)?.name;
}

/**
 * `content.id=x` needs no subquery: a to-one hop compared on its own key is the foreign key.
 * Assumes referential integrity (a non-null foreign key always finds its row).
 */
function shortcutForeignKey(hops: readonly PathHop[], field: ResolvedScalarField): { hops: PathHop[]; column: string | null } {
  const kept = [...hops];
  let column = field.column;
  while (kept.length > 0 && column !== null && field.type !== "json") {
    const last = kept[kept.length - 1].relation;
    if (last.cardinality !== "one" || last.targetColumn !== column) break;
    column = last.localColumn;
    kept.pop();
  }
  return { hops: kept, column };
}
