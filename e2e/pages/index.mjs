// The page objects of the five views, by the view name of their links (`#view=…`), and
// `openView`, which opens a view as an instance of its class.
import { ViewPage } from '../views.mjs';
import { InequalityPage } from './inequality.mjs';
import { ModelsPage } from './models.mjs';
import { MapPage } from './map.mjs';
import { DataPage } from './data.mjs';
import { FindingsPage } from './findings.mjs';
import { MicrodataPage } from './microdata.mjs';

export { InequalityPage, ModelsPage, MapPage, DataPage, FindingsPage, MicrodataPage };

export const PAGE_CLASSES = { inequality: InequalityPage, models: ModelsPage, map: MapPage, data: DataPage, findings: FindingsPage };

/** Opens `view` by its link (`ViewPage.open`'s options) and returns its page object: an instance of the view's class. */
export function openView(browser, origin, view, options = {}) {
  return (PAGE_CLASSES[view] ?? ViewPage).open(browser, origin, view, options);
}
