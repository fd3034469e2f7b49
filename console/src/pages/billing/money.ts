/** Amounts are exact decimal strings from the server, shown as they come with their currency. */
import { graphql, readFragment, type FragmentOf } from '../../lib/graphql';

export const MoneyFields = graphql(`
  fragment ConsoleMoney on Money {
    amount
    currency
  }
`);

export type MoneyRef = FragmentOf<typeof MoneyFields>;

/** `12.50 EUR`, or `—` for no amount. */
export function money(ref: MoneyRef | null | undefined): string {
  const m = readFragment(MoneyFields, ref);
  return m ? `${m.amount} ${m.currency}` : '—';
}

/** The decimal string alone (form placeholders, chart values). */
export function amountOf(ref: MoneyRef | null | undefined): string | undefined {
  return readFragment(MoneyFields, ref)?.amount;
}
