import { useNavigate } from 'react-router';
import { groupPath, RESOURCE_TYPES } from './types.ts';
import { FormDisclosure } from '../../components/form-disclosure.tsx';
import { onSubmitted } from '../../components/submitted-form.ts';

/**
 * Opens the editor of one locale of a workflow or layout, for a resource with no translations yet
 * (the list shows only those that have some). Nothing is written until the editor saves.
 */
export function NewTranslation({ environmentId }: { environmentId: string }) {
  const navigate = useNavigate();
  return (
    <FormDisclosure summary="Add a locale to a workflow or layout">
      <form
        onSubmit={onSubmitted((text) => void navigate(groupPath(environmentId, text('resourceType'), text('resourceId'), text('locale'))))}
      >
        <div className="grid">
          <label>
            Resource type
            <select name="resourceType" defaultValue="workflow">
              {RESOURCE_TYPES.map((type) => (
                <option key={type}>{type}</option>
              ))}
            </select>
          </label>
          <label>
            Workflow or layout id
            <input name="resourceId" required />
          </label>
          <label>
            Locale
            <input name="locale" required placeholder="en_US" />
          </label>
        </div>
        <button type="submit">Open editor</button>
      </form>
    </FormDisclosure>
  );
}
