import { useMutation } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { fieldMessage, fieldProblem } from '../../components/api-field-error.tsx';
import { ErrorNote } from '../../components/states.tsx';
import { onSubmitted } from '../../components/submitted-form.ts';

/**
 * The organization's master JSON of one locale (every workflow's and layout's texts) saved as a
 * file: fetched with the environment's key (a plain link could not send it), then handed to the
 * browser as a download.
 */
export function MasterJsonDownload({ environmentId }: { environmentId: string }) {
  const download = useMutation({
    mutationFn: async (locale: string) => {
      const body = await api<{ data: unknown }>(environmentId, '/v2/translations/master-json', { query: { locale } });
      const url = URL.createObjectURL(new Blob([JSON.stringify(body.data, null, 2)], { type: 'application/json' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `${locale || 'default-locale'}.json`;
      link.click();
      // The click has handed the blob to the download; the URL is not needed after it.
      setTimeout(() => URL.revokeObjectURL(url), 0);
    },
  });
  const locale = fieldProblem('master-locale', fieldMessage(download.error, 'locale'));
  return (
    <article>
      <h2>Master JSON</h2>
      <form onSubmit={onSubmitted((text) => download.mutate(text('locale')))}>
        <label>
          Locale
          <input name="locale" placeholder="The organization's default locale when empty" {...locale.inputProps} />
          {locale.note}
        </label>
        {download.error && !locale.note ? <ErrorNote error={download.error} title="Could not download the master JSON" /> : null}
        <button type="submit" disabled={download.isPending} aria-busy={download.isPending}>
          Download master JSON
        </button>
      </form>
    </article>
  );
}
