/**
 * The note box under the alert's timeline: addAlertNote puts the text on the timeline (action "note", with
 * the author), where every open page of the alert shows it (alertChanged NOTE_ADDED).
 */
import { useState } from 'react';
import { useMutation } from 'urql';
import { MutationForm, TextField } from '../../components/Field';
import { graphql } from '../../lib/graphql';

const AddNote = graphql(`
  mutation ConsoleAddAlertNote($id: ID!, $text: String!) {
    addAlertNote(id: $id, text: $text) {
      id
      action
      note
    }
  }
`);

/** The longest note the server takes (src/alerts/notes.ts). */
const MAX_NOTE = 4000;

export function AlertNotes({ alertId, onDone }: { alertId: string; onDone: () => void }) {
  const [, addNote] = useMutation(AddNote);
  const [text, setText] = useState('');
  const left = MAX_NOTE - [...text].length;
  return (
    <MutationForm
      title="Add a note"
      submitLabel="Add note"
      deniedBecause={left < 0 ? `The note is ${-left} characters too long (at most ${MAX_NOTE}).` : null}
      onSubmit={async () => {
        const r = await addNote({ id: alertId, text });
        if (!r.error) setText('');
        return r;
      }}
      onDone={onDone}
    >
      <TextField
        label="Note"
        value={text}
        onChange={setText}
        required
        multiline
        hint="Goes on the alert's timeline with your name."
      />
    </MutationForm>
  );
}
