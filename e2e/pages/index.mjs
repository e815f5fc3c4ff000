// The page objects of the five views, by the view name of their links (`#view=…`):
// `ViewPage.open` returns an instance of the view's class.
import { InequalityPage } from './inequality.mjs';
import { ModelsPage } from './models.mjs';
import { MapPage } from './map.mjs';
import { DataPage } from './data.mjs';
import { FindingsPage } from './findings.mjs';
import { MicrodataPage } from './microdata.mjs';

export { InequalityPage, ModelsPage, MapPage, DataPage, FindingsPage, MicrodataPage };

export const PAGE_CLASSES = { inequality: InequalityPage, models: ModelsPage, map: MapPage, data: DataPage, findings: FindingsPage };
