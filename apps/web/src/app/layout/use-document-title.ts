import { useEffect } from 'react';
import { useSettings } from '../../api/settings';

/** The document title is the appName setting (section 2), on every layout. */
export function useDocumentTitle(): void {
  const { data: settings } = useSettings();
  useEffect(() => {
    if (settings?.appName) document.title = settings.appName;
  }, [settings?.appName]);
}
