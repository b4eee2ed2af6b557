import { useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import { Breadcrumb } from '../../components/breadcrumb.tsx';
import { useParamsLink } from '../../components/list-pager.tsx';
import { Empty, ErrorNote, Loading } from '../../components/states.tsx';
import { TabNav } from '../../components/tab-nav.tsx';
import { LocaleEditor } from './LocaleEditor.tsx';
import { translationsPath, type TranslationGroup } from './types.ts';
import { onSubmitted } from '../../components/submitted-form.ts';

/** A workflow's or layout's translations: its locales (`?locale=` picks one) and that locale's JSON. */
export function TranslationGroupView() {
  const { environmentId = '', resourceType = '', resourceId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const linkTo = useParamsLink();
  const group = useQuery({
    queryKey: ['translations', environmentId, 'group', resourceType, resourceId],
    // No group yet (no locale written, or translations off for the resource) is a state, not a failure.
    queryFn: ({ signal }) =>
      api<{ data: TranslationGroup }>(environmentId, `/v2/translations/group/${resourceType}/${encodeURIComponent(resourceId)}`, {
        signal,
      }).then(
        (body) => body.data,
        (error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return null;
          throw error;
        },
      ),
  });
  const locales = group.data?.locales ?? [];
  const locale = params.get('locale') ?? locales[0];

  return (
    <section>
      <Breadcrumb listTo={translationsPath(environmentId)} listLabel="Translations" current={resourceType} />
      <h1>{group.data?.resourceName ?? resourceId}</h1>
      <p>
        {resourceType} <code>{resourceId}</code>
      </p>
      {group.error ? <ErrorNote error={group.error} title="Could not load the translations" /> : null}
      {group.isPending ? <Loading what="the locales" /> : null}
      {group.data === null ? (
        <Empty>
          This {resourceType} has no translations yet, or does not render them (translations are off). Texts written here are kept either
          way.
        </Empty>
      ) : null}
      {locales.length > 0 ? (
        <TabNav
          label="Locales"
          tabs={locales.map((name) => ({
            key: name,
            label: group.data?.outdatedLocales?.includes(name) ? `${name} (outdated)` : name,
            to: linkTo({ locale: name }),
            current: name === locale,
          }))}
        />
      ) : null}
      <form
        onSubmit={onSubmitted((text) => {
          if (text('locale')) setParams({ locale: text('locale') });
        })}
      >
        <fieldset role="group">
          <input name="locale" aria-label="Locale to open" placeholder="Another locale, e.g. de_DE" />
          <button type="submit" className="secondary">
            Open locale
          </button>
        </fieldset>
      </form>
      {locale ? (
        <LocaleEditor key={locale} environmentId={environmentId} resourceType={resourceType} resourceId={resourceId} locale={locale} />
      ) : group.data === null ? (
        <Empty>Open a locale above to write its first texts.</Empty>
      ) : null}
    </section>
  );
}
