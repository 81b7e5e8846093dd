import type { ReactNode } from 'react';
import { selectMyDataScreen } from '../../../../machines/my-data/my-data.selectors';
import type { MyDataSection } from '../../../../machines/my-data/my-data.types';
import { BackLink } from '../../../components/BackLink';
import { Heading } from '../../../components/Heading';
import { Page, Stack } from '../../../components/Page';
import { myData as copy } from '../../../copy/es.myData';
import { MyDataActor } from '../my-data.context';
import { DeletionBanner } from './DeletionBanner';
import { SectionButton, SectionNav } from './my-data.styles';

const SECTIONS: MyDataSection[] = [
  'data',
  'accesses',
  'face',
  'download',
  'secondaryUse',
  'corrections',
  'deletion',
];

/** The area's frame: back to the dashboard, the title, the sections that work, then the section. */
export function MyDataFrame({ children }: { children: ReactNode }) {
  const screen = MyDataActor.useSelector(selectMyDataScreen);
  const { send } = MyDataActor.useActorRef();
  return (
    <Page wide>
      <Stack $gap={16}>
        <BackLink to="/dashboard" label={copy.back} />
        <Heading focusOnMount="client">{copy.title}</Heading>
        <SectionNav aria-label={copy.sectionsLabel}>
          {SECTIONS.map((section) => (
            <SectionButton
              key={section}
              type="button"
              aria-current={screen === section ? 'page' : undefined}
              disabled={screen === 'loading' || screen === 'failed'}
              onClick={() => send({ type: 'section.show', section })}
            >
              {copy.sections[section]}
            </SectionButton>
          ))}
        </SectionNav>
        <DeletionBanner />
        {children}
      </Stack>
    </Page>
  );
}
