// Expressions built term by term with their own placeholders (`#f<n>`, `:f<n>`), so they never
// collide with a key condition's: the FilterExpressions of the activity feed and the message
// lists, and the update of a message's state.

export interface Filter {
  FilterExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

/** DynamoDB allows at most 100 operands in one IN. */
const MAX_IN = 100;

export class ExpressionBuilder {
  private readonly names: Record<string, string> = {};
  private readonly values: Record<string, unknown> = {};
  private readonly terms: string[] = [];
  private count = 0;

  name(attribute: string): string {
    const placeholder = `#f${this.count++}`;
    this.names[placeholder] = attribute;
    return placeholder;
  }

  value(value: unknown): string {
    const placeholder = `:f${this.count++}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  /** `attribute = value`. */
  equals(attribute: string, value: unknown): string {
    return `${this.name(attribute)} = ${this.value(value)}`;
  }

  /** `attribute IN (...)`, in groups DynamoDB accepts, OR-ed. */
  in(attribute: string, values: readonly unknown[]): string {
    const name = this.name(attribute);
    const groups: string[] = [];
    for (let i = 0; i < values.length; i += MAX_IN) {
      groups.push(
        `${name} IN (${values
          .slice(i, i + MAX_IN)
          .map((v) => this.value(v))
          .join(', ')})`,
      );
    }
    return groups.length === 1 ? groups[0]! : `(${groups.join(' OR ')})`;
  }

  and(term: string): void {
    this.terms.push(term);
  }

  /** The AND-ed terms as a FilterExpression with its placeholders; nothing when there are none. */
  build(): Filter {
    if (this.terms.length === 0) return {};
    return { FilterExpression: this.terms.join(' AND '), ...this.placeholders() };
  }

  /** Every name and value placeholder handed out so far. */
  placeholders(): Required<Omit<Filter, 'FilterExpression'>> {
    return { ExpressionAttributeNames: this.names, ExpressionAttributeValues: this.values };
  }
}
