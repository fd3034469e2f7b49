/** The monthly budget: set (admins) and removed. */
import { useState } from 'react';
import { useMutation } from 'urql';
import { ActionButton } from '../../components/ActionButton';
import { MutationForm, TextField } from '../../components/Field';
import { Card } from '../../components/Page';
import { graphql, readFragment, type FragmentOf } from '../../lib/graphql';
import { amountOf, MoneyFields } from './money';

export const BudgetFields = graphql(
  `
    fragment ConsoleBillingBudget on BillingCurrent {
      currency
      budget {
        amount {
          ...ConsoleMoney
        }
      }
    }
  `,
  [MoneyFields],
);

const SetBudget = graphql(`
  mutation ConsoleSetBudget($input: SetBudgetInput!) {
    setBudget(input: $input) {
      month
      amount {
        amount
        currency
      }
    }
  }
`);
const DeleteBudget = graphql(`
  mutation ConsoleDeleteBudget {
    clearBudget
  }
`);

export function BudgetCard({
  current,
  denied,
  onDone,
}: {
  current: FragmentOf<typeof BudgetFields> | undefined;
  denied: string | null;
  onDone: () => void;
}) {
  const c = readFragment(BudgetFields, current);
  const [, setBudget] = useMutation(SetBudget);
  const [, deleteBudget] = useMutation(DeleteBudget);
  const [amount, setAmount] = useState('');
  return (
    <Card title="Budget">
      <MutationForm
        title="Monthly budget"
        submitLabel="Set budget"
        deniedBecause={denied}
        onSubmit={() => setBudget({ input: { amount } })}
        onDone={onDone}
      >
        <TextField
          label={`Budget (${c?.currency ?? 'currency'})`}
          value={amount}
          onChange={setAmount}
          placeholder={amountOf(c?.budget?.amount) ?? 'none'}
          required
        />
      </MutationForm>
      <ActionButton
        variant="danger"
        run={() => deleteBudget({})}
        deniedBecause={denied ?? (c?.budget ? null : 'No budget is set.')}
        onDone={onDone}
      >
        Remove budget
      </ActionButton>
    </Card>
  );
}
